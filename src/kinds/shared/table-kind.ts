import type { ServiceApi } from "../../api/index.ts";
import type { Linked } from "../../api/schemas.ts";
import type { DesiredContext, ManagedKind, ManagedStatus, Reference } from "../../runtime/sdk/index.ts";
import { type CelRule, exactlyOne, hrefLinks, immutable, NameLookup } from "../../runtime/sdk/index.ts";
import { cloudLookup } from "./cloud.ts";
import { destroyOrWait, orUndefined } from "./observe.ts";
import { type Field, FieldTable } from "./table.ts";

/** Desired state of a table kind: each row's value by spec field, and the spec field each came from. */
export type TableDesired = Record<string, unknown> & { fields: Record<string, string> };
/** Observed record of a table kind: `href`, and each row's value by its observed key. */
export type TableObserved = Record<string, unknown> & { href: string };

/**
 * A row of a kind built by `tableKind`: a Field, and where the desired value comes from when
 * the spec does not give it directly.
 */
export interface TableRow<C = unknown> extends Field<TableDesired, TableObserved> {
  /** The spec may name a custom resource instead (`deploymentRef: {name}` for `deploymentHref`). */
  ref?: { field: string; kind: string };
  /** The spec may name the object instead (`cloud: {name}`), looked up through a collection index. */
  byName?: { field: string; collection: string; list(client: C): Promise<{ name: string; href: string }[]> };
  /** Exactly one of the spec field and its alternative (`ref` or `byName`) must be set. */
  required?: boolean;
  /** Unset: metadata.name. */
  defaultName?: boolean;
  /** The index filter that finds the object by this value, where it is not named as the parameter. */
  filter?: string;
}

/** The service calls of a resource: one collection for the account, or one per cloud (`/api/clouds/:id/...`). */
export interface TableResource {
  show(href: string): Promise<Linked>;
  /** `options` as IndexOptions' (the filter of a lookup, the hrefs a batched read wants). */
  index(
    scope: string,
    options?: { filter?: Record<string, string>; wanted?: ReadonlySet<string> },
  ): Promise<Linked[]>;
  create(scope: string, params: Record<string, unknown>): Promise<string>;
  /** Absent: the service has no update (every row is create-only and the kind replaces). */
  update?(href: string, params: Record<string, unknown>): Promise<void>;
  destroy(href: string): Promise<void>;
}

/** What names and shows the kind is the kind's own; the rest comes from the rows and the resource. */
export interface TableKindOptions<S, C>
  extends Pick<
    ManagedKind<S, TableDesired, TableObserved, C>,
    | "kind"
    | "plural"
    | "singular"
    | "shortNames"
    | "description"
    | "schema"
    | "printerColumns"
    | "notReady"
    | "validate"
    | "replace"
    | "beforeWrite"
  > {
  rows: readonly TableRow<C>[];
  resource(client: C): TableResource;
  /**
   * The spec field of the cloud whose collection holds the objects (`cloudHref`), for a resource
   * listed per cloud (or per other parent: a stored script's attachments, `storedScriptHref`);
   * absent: one collection for the account. The observed record takes the parent from it: some
   * representations have no link to it of their own.
   */
  perCloud?: string;
  /**
   * The spec fields a lost create is looked up by (index filter on their parameters, then an exact
   * match); one the desired state leaves unset is not filtered on.
   */
  lookupBy: string[];
  /** The fields a lookup's candidate must also show exactly, where the index cannot filter on them (a route table's name). */
  matchBy?: string[];
  /** What lets the object go while the service refuses its deletion, said in DeletionBlocked. */
  deleteHint?: string;
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
function createOnly<C>(rows: readonly TableRow<C>[]): string[] {
  return rows
    .filter((r) => r.write === "create")
    .flatMap((r) => [r.spec, ...(r.ref ? [r.ref.field] : []), ...(r.byName ? [r.byName.field] : [])]);
}

/** The desired state: each row's value from the spec, a resolved reference, a name lookup or metadata.name. */
async function desiredOf<C>(
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
      const names = ctx.names ?? new NameLookup();
      const list = r.byName.list;
      value = await names.href(
        `${ctx.account ?? ""}${r.byName.collection}`,
        named.name,
        `${r.byName.field}.name`,
        () => list(ctx.client),
      );
      d.fields[r.spec] = r.byName.field;
    }
    if (value === undefined && r.defaultName) value = ctx.meta.name;
    if (value !== undefined) d[r.spec] = value;
  }
  return d;
}

/**
 * A whole ManagedKind from a field table and the resource's calls: the kind is its table, its
 * schema and a few lines of wiring. References, links checked before a create, `immutable`,
 * write-only values, the lookup of a lost create and drift through the collection index all
 * come from the rows. What is special stays with the kind (wrap the result to add it).
 */
export function tableKind<S extends { accountRef: { name: string } }, C>(
  o: TableKindOptions<S, C>,
): ManagedKind<S, TableDesired, TableObserved, C> {
  const rows = o.rows.map((r) => ({
    ...r,
    from: r.from ?? ((d: TableDesired) => d.fields[r.spec] ?? r.spec),
  }));
  const table = new FieldTable<TableDesired, TableObserved>(rows);
  const scopeOf = (d: TableDesired | undefined) =>
    o.perCloud ? (d?.[o.perCloud] as string | undefined) : "";
  const observe = (rep: Linked, scope: string | undefined) =>
    table.observe(rep, o.perCloud ? { [o.perCloud]: scope } : {});
  const hrefFields = rows.filter((r) => r.spec.endsWith("Href") && r.write !== "read").map((r) => r.spec);
  const locked = createOnly(rows);
  const { kind, plural, singular, shortNames, description, schema, printerColumns } = o;
  const identity = rows.filter((r) => o.lookupBy.includes(r.spec));
  return {
    kind,
    plural,
    singular,
    shortNames,
    description,
    schema,
    printerColumns,
    notReady: o.notReady,
    validate: o.validate,
    replace: o.replace,
    beforeWrite: o.beforeWrite,
    references: (spec) =>
      rows.flatMap((r): Reference[] => {
        const target = r.ref && (spec as Record<string, { name: string } | undefined>)[r.ref.field];
        return r.ref && target ? [{ field: r.ref.field, kind: r.ref.kind, name: target.name }] : [];
      }),
    links: (spec) => hrefLinks(spec as Record<string, unknown>, hrefFields),
    desired: (spec, ctx) => desiredOf(rows, spec as Record<string, unknown>, ctx),
    async observe(client, href, desired) {
      const rep = await orUndefined(o.resource(client).show(href));
      return rep && observe(rep, scopeOf(desired));
    },
    async lookup(client, desired) {
      const given = identity.filter((r) => desired[r.spec] !== undefined);
      const filter = Object.fromEntries(given.map((r) => [r.filter ?? r.param!, String(desired[r.spec])]));
      const found = await o.resource(client).index(scopeOf(desired)!, { filter });
      // Filters may match partially: a candidate shows every identifying value and no other create-only one.
      return found
        .map((rep) => observe(rep, scopeOf(desired)))
        .filter(
          (c) =>
            given.every((r) => c[r.observed ?? r.spec] === desired[r.spec]) &&
            (o.matchBy ?? []).every((f) => c[f] === desired[f]) &&
            table.diff(desired, c).every((d) => !locked.includes(d.field)),
        );
    },
    hrefOf: (obs) => obs.href,
    create: (client, desired) => o.resource(client).create(scopeOf(desired)!, table.createParams(desired)),
    async update(client, href, desired, _observed, diff) {
      const params = table.updateParams(diff, desired);
      if (Object.keys(params).length === 0) return;
      const resource = o.resource(client);
      // Unreachable for a kind without update: its rows are create-only, and it replaces.
      if (!resource.update)
        throw new Error(`${kind} objects cannot be updated: ${Object.keys(params).join(", ")}`);
      await resource.update(href, params);
    },
    // The service refuses (422) while something it knows still uses the object: wait, do not stall.
    delete: (client, href) =>
      destroyOrWait(() => o.resource(client).destroy(href), href, undefined, o.deleteHint),
    diff: (desired, observed) => table.diff(desired, observed),
    immutable: locked,
    writeOnly: table.writeOnlyFields.length > 0 ? (d) => table.writeOnly(d) : undefined,
    atProvider: (obs) => table.atProvider(obs),
    index: {
      scope: (spec, status: ManagedStatus) => {
        if (!o.perCloud) return "";
        const cloud = (spec as Record<string, unknown>)[o.perCloud] ?? status.atProvider?.[o.perCloud];
        return typeof cloud === "string" ? cloud : undefined;
      },
      scopeOfDesired: scopeOf,
      list: async (client, scope, wanted) =>
        (await o.resource(client).index(scope, { wanted })).map((rep) => observe(rep, scope)),
    },
  };
}
