import type { ServiceApi } from "../../api/index.ts";
import type { DesiredContext, Link, Reference } from "../../runtime/sdk/index.ts";
import { type CelRule, exactlyOne, hrefLinks, immutable, NameLookup } from "../../runtime/sdk/index.ts";
import { cloudLookup } from "./cloud.ts";
import type { Field } from "./table.ts";

/** Desired state of a table kind: each row's value by spec field, and the spec field each came from. */
export type TableDesired = Record<string, unknown> & { fields: Record<string, string> };
/** Observed record of a table kind: `href`, and each row's value by its observed key. */
export type TableObserved = Record<string, unknown> & { href: string };

/**
 * A row of a kind built by `tableKind`: a Field, and where the desired value comes from when
 * the spec does not give it directly.
 */
export interface TableRow<C = unknown> extends Field<TableDesired, TableObserved> {
  /**
   * The spec may name a custom resource instead (`deploymentRef: {name}` for `deploymentHref`).
   * `afterCreate`: an association the update after the create makes (see Reference.afterCreate).
   */
  ref?: { field: string; kind: string; afterCreate?: boolean };
  /**
   * The spec may name the object instead (`cloud: {name}`), looked up through a collection index:
   * `collection` keys the cached lookups (per account), and may depend on the rows before it (a
   * volume type by name in the volume's cloud).
   */
  byName?: {
    field: string;
    collection: string | ((desired: TableDesired) => string);
    list(client: C, desired: TableDesired): Promise<{ name: string; href: string }[]>;
  };
  /** Exactly one of the spec field and its alternative (`ref` or `byName`) must be set. */
  required?: boolean;
  /** Unset: metadata.name. */
  defaultName?: boolean;
  /** The index filter that finds the object by this value, where it is not named as the parameter. */
  filter?: string;
  /**
   * false: not among the links checked before a create (ManagedKind.links), because the kind's own
   * reading checks it already (a cloud whose capabilities `desired` reads) or the service cannot
   * show it (a placement group).
   */
  linkCheck?: false;
}

/** Rows several table kinds share. */
export const tableRows = {
  /** The cloud, by `cloudHref` or by `cloud: {name}` (exactly one); create-only. `shown`: how the service shows it. */
  cloud: (shown: Partial<TableRow<Pick<ServiceApi, "clouds">>>): TableRow<Pick<ServiceApi, "clouds">> => ({
    spec: "cloudHref",
    byName: cloudLookup,
    required: true,
    write: "create",
    ...shown,
  }),
  /** The deployment it belongs to, by `deploymentRef` or `deploymentHref`; updatable. */
  deployment: (): TableRow => ({
    spec: "deploymentHref",
    ref: { field: "deploymentRef", kind: "Deployment" },
    param: "deployment_href",
    link: "deployment",
    write: "update",
  }),
};

/**
 * The CEL rules a table implies: one of each alternative pair, and create-only fields immutable,
 * unless the kind replaces its object when one changes (`replaced`): then admission lets it through.
 */
export function tableRules<C>(rows: readonly TableRow<C>[], options: { replaced?: boolean } = {}): CelRule[] {
  const rules: CelRule[] = [];
  for (const r of rows) {
    if (r.ref)
      rules.push({ ...exactlyOne([r.ref.field, r.spec], r.required ?? false), fieldPath: `.${r.ref.field}` });
    if (r.byName)
      rules.push({ ...exactlyOne([r.spec, r.byName.field], r.required ?? false), fieldPath: `.${r.spec}` });
  }
  return options.replaced ? rules : [...rules, ...createOnly(rows).map(immutable)];
}

/** The spec fields of the create-only rows, alternatives included. */
export function createOnly<C>(rows: readonly TableRow<C>[]): string[] {
  return rows
    .filter((r) => r.write === "create")
    .flatMap((r) => [r.spec, ...(r.ref ? [r.ref.field] : []), ...(r.byName ? [r.byName.field] : [])]);
}

/** The custom resources a spec names through the rows' references, as a function of the spec. */
export function rowReferences<C>(
  rows: readonly TableRow<C>[],
): (spec: Record<string, unknown>) => Reference[] {
  // Asked at every informer event of the kind: the rows that may reference are found once.
  const refs = rows.flatMap((r) => (r.ref ? [r.ref] : []));
  return (spec) => {
    const out: Reference[] = [];
    for (const ref of refs) {
      const target = spec[ref.field] as { name: string } | undefined;
      if (!target) continue;
      out.push({
        field: ref.field,
        kind: ref.kind,
        name: target.name,
        ...(ref.afterCreate ? { afterCreate: true } : {}),
      });
    }
    return out;
  };
}

/** The hrefs (and lists of hrefs) a spec gives raw, checked before a create: every writable `...Href(s)` row. */
export function rowLinks<C>(rows: readonly TableRow<C>[]): (spec: Record<string, unknown>) => Link[] {
  const fields = rows
    .filter((r) => /Hrefs?$/.test(r.spec) && r.write !== "read" && r.linkCheck !== false)
    .map((r) => r.spec);
  return (spec) => hrefLinks(spec, fields);
}

/** The desired state: each row's value from the spec, a resolved reference, a name lookup or metadata.name. */
export async function desiredOf<C>(
  rows: readonly TableRow<C>[],
  spec: Record<string, unknown>,
  ctx: DesiredContext<C>,
): Promise<TableDesired> {
  const d: TableDesired = { fields: {} };
  for (const r of rows) {
    let value = spec[r.spec];
    if (value === undefined && r.ref && spec[r.ref.field] !== undefined) {
      value = ctx.refs[r.ref.field]?.href;
      d.fields[r.spec] = r.ref.field;
    }
    const named = r.byName && (spec[r.byName.field] as { name: string } | undefined);
    if (value === undefined && r.byName && named) {
      const { collection, list } = r.byName;
      const key = typeof collection === "string" ? collection : collection(d);
      value = await (ctx.names ?? new NameLookup()).href(
        `${ctx.account ?? ""}${key}`,
        named.name,
        `${r.byName.field}.name`,
        () => list(ctx.client, d),
      );
      d.fields[r.spec] = r.byName.field;
    }
    if (value === undefined && r.defaultName) value = ctx.meta.name;
    if (value !== undefined) d[r.spec] = value;
  }
  return d;
}
