import type { Linked } from "../../api/schemas.ts";
import type {
  DesiredContext,
  FieldDiff,
  LookupContext,
  ManagedKind,
  ManagedStatus,
} from "../../runtime/sdk/index.ts";
import { destroyOrWait, orUndefined } from "./observe.ts";
import { FieldTable } from "./table.ts";
import {
  createOnly,
  desiredOf,
  rowLinks,
  rowReferences,
  type TableDesired,
  type TableObserved,
  type TableRow,
} from "./table-rows.ts";

export { type TableDesired, type TableObserved, type TableRow, tableRows, tableRules } from "./table-rows.ts";

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

/** A collection of the service client: what `accountWide` and `perParent` adapt to a TableResource. */
interface Collection<Scoped extends boolean> {
  show(href: string): Promise<Linked>;
  index: Scoped extends true
    ? (parent: string, options?: IndexOptions) => Promise<Linked[]>
    : (options?: IndexOptions) => Promise<Linked[]>;
  create: Scoped extends true
    ? (parent: string, params: never) => Promise<string>
    : (params: never) => Promise<string>;
  update?(href: string, params: never): Promise<void>;
  destroy(href: string): Promise<void>;
}

type IndexOptions = { filter?: Record<string, string>; wanted?: ReadonlySet<string> };

/** The collection's update, where the service has one (without, the kind replaces on every change). */
function updateOf(c: Collection<boolean>): Pick<TableResource, "update"> {
  const update = c.update?.bind(c);
  return update ? { update: (href, params) => update(href, params as never) } : {};
}

/** The calls of an account-wide collection (`/api/networks`): its scope is "". */
export function accountWide(c: Collection<false>): TableResource {
  return {
    show: (href) => c.show(href),
    index: (_scope, options) => c.index(options),
    create: (_scope, params) => c.create(params as never),
    ...updateOf(c),
    destroy: (href) => c.destroy(href),
  };
}

/** The calls of a collection listed per cloud or other parent (`/api/clouds/:id/volumes`): its scope is the parent. */
export function perParent(c: Collection<true>): TableResource {
  return {
    show: (href) => c.show(href),
    index: (parent, options) => c.index(parent, options),
    create: (parent, params) => c.create(parent, params as never),
    ...updateOf(c),
    destroy: (href) => c.destroy(href),
  };
}

type Kind<S, C, D> = ManagedKind<S, D, TableObserved, C>;

/** The table-derived kind an override wraps: its operations, and the calls and records they are made of. */
export interface TableBase<S, C> extends Kind<S, C, TableDesired> {
  index: NonNullable<Kind<S, C, TableDesired>["index"]>;
  resource(client: C): TableResource;
  /** The observed record of a representation of `scope`'s collection (the scope: a per-cloud kind's cloud). */
  record(representation: Linked, scope: string | undefined): TableObserved;
}

/**
 * Per-operation overrides (ACK's hooks, crossplane's ExternalClientFns): each receives the
 * table-derived kind (`base`) first, and wraps its default (Volume's delete: check the
 * attachments, then `base.delete`) or replaces it (Route's next-hop diff). A member that makes
 * calls is one of them, so that it reads through the table (`base.resource`, `base.record`);
 * the pure members a kind adds are plain options.
 */
export interface TableOverrides<S, C, D extends TableDesired> {
  desired?(base: TableBase<S, C>, spec: S, ctx: DesiredContext<C>): Promise<D>;
  observe?(base: TableBase<S, C>, client: C, href: string, desired: D): Promise<TableObserved | undefined>;
  lookup?(
    base: TableBase<S, C>,
    client: C,
    desired: D,
    ctx?: LookupContext<TableObserved>,
  ): Promise<TableObserved[]>;
  create?(base: TableBase<S, C>, client: C, desired: D): Promise<string>;
  update?(
    base: TableBase<S, C>,
    client: C,
    href: string,
    desired: D,
    observed: TableObserved,
    diff: FieldDiff[],
  ): Promise<void>;
  delete?(base: TableBase<S, C>, client: C, href: string, observed: TableObserved): Promise<void>;
  /** ManagedKind.beforeWrite (the table has none: `base.beforeWrite` is undefined). */
  beforeWrite?(base: TableBase<S, C>, client: C, desired: D, fields?: readonly string[]): Promise<void>;
  diff?(base: TableBase<S, C>, desired: D, observed: TableObserved): FieldDiff[];
  /** The index listing (ManagedKind.index.list). */
  list?(
    base: TableBase<S, C>,
    client: C,
    scope: string,
    wanted?: ReadonlySet<string>,
  ): Promise<TableObserved[]>;
}

/**
 * What names and shows the kind, and the optional members it adds, are the kind's own; the rest
 * comes from the rows and the resource, and `overrides` wrap or replace what is special.
 */
export interface TableKindOptions<S, C, D extends TableDesired = TableDesired>
  extends Pick<
    Kind<S, C, D>,
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
    | "warnings"
    | "contents"
    | "siblings"
    | "leadsSiblings"
    | "keySources"
    | "retain"
    | "adoptExisting"
    | "export"
    | "immutable"
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
  /** How long a deletion the service refuses waits before it is tried again (default DELETION_RETRY_MS). */
  deleteRetryMs?: number;
  /**
   * A deletion the service refuses (409/422: something it knows still uses the object): `wait`
   * (default) is DeletionBlocked, retried; `stall` reports the service's answer (a terminal error).
   */
  deleteRefused?: "wait" | "stall";
  overrides?: TableOverrides<S, C, NoInfer<D>>;
}

/**
 * A whole ManagedKind from a field table and the resource's calls: the kind is its table, its
 * schema and a few lines of wiring. References, links checked before a create, `immutable`,
 * write-only values, the lookup of a lost create and drift through the collection index all
 * come from the rows; `overrides` add what is special to one operation.
 */
export function tableKind<
  S extends { accountRef: { name: string } },
  C,
  D extends TableDesired = TableDesired,
>(o: TableKindOptions<S, C, D>): Kind<S, C, D> {
  const base = tableBase(o);
  const v = o.overrides ?? {};
  const { resource: _resource, record: _record, ...derived } = base;
  return {
    ...(derived as unknown as Kind<S, C, D>),
    ...ownMembers(o),
    desired: v.desired
      ? (spec, ctx) => v.desired!(base, spec, ctx)
      : (derived.desired as Kind<S, C, D>["desired"]),
    observe: v.observe ? (client, href, d) => v.observe!(base, client, href, d) : derived.observe,
    lookup: v.lookup ? (client, d, ctx) => v.lookup!(base, client, d, ctx) : derived.lookup,
    create: v.create ? (client, d) => v.create!(base, client, d) : derived.create,
    update: v.update
      ? (client, href, d, obs, diff) => v.update!(base, client, href, d, obs, diff)
      : derived.update,
    delete: v.delete ? (client, href, obs) => v.delete!(base, client, href, obs) : derived.delete,
    beforeWrite: v.beforeWrite && ((client, d, fields) => v.beforeWrite!(base, client, d, fields)),
    diff: v.diff ? (d, obs) => v.diff!(base, d, obs) : derived.diff,
    index: {
      ...derived.index,
      list: v.list ? (client, scope, wanted) => v.list!(base, client, scope, wanted) : derived.index.list,
    },
  };
}

/** The members the options give the kind as they are: all but the table's own options. */
function ownMembers<S, C, D extends TableDesired>(o: TableKindOptions<S, C, D>): Partial<Kind<S, C, D>> {
  const {
    rows,
    resource,
    perCloud,
    lookupBy,
    matchBy,
    deleteHint,
    deleteRetryMs,
    deleteRefused,
    overrides,
    ...own
  } = o;
  return own;
}

/** The kind the rows and the resource make, before any override. */
function tableBase<S, C, D extends TableDesired>(o: TableKindOptions<S, C, D>): TableBase<S, C> {
  const rows = o.rows.map((r) => ({
    ...r,
    from: r.from ?? ((d: TableDesired) => d.fields[r.spec] ?? r.spec),
  }));
  const table = new FieldTable<TableDesired, TableObserved>(rows);
  const scopeOf = (d: TableDesired | undefined) =>
    o.perCloud ? (d?.[o.perCloud] as string | undefined) : "";
  const record = (rep: Linked, scope: string | undefined) => {
    const r = table.observe(rep);
    // The collection's parent, where the representation shows none of its own.
    if (o.perCloud && r[o.perCloud] === undefined) r[o.perCloud] = scope;
    return r;
  };
  const locked = createOnly(rows);
  const links = rowLinks(rows);
  const references = rowReferences(rows);
  const identity = rows.filter((r) => o.lookupBy.includes(r.spec));
  return {
    kind: o.kind,
    plural: o.plural,
    singular: o.singular,
    shortNames: o.shortNames,
    description: o.description,
    schema: o.schema,
    resource: o.resource,
    record,
    references: (spec) => references(spec as Record<string, unknown>),
    links: (spec) => links(spec as Record<string, unknown>),
    desired: (spec, ctx) => desiredOf(rows, spec as Record<string, unknown>, ctx),
    async observe(client, href, desired) {
      const rep = await orUndefined(o.resource(client).show(href));
      return rep && record(rep, scopeOf(desired));
    },
    async lookup(client, desired) {
      const given = identity.filter((r) => desired[r.spec] !== undefined);
      const filter = Object.fromEntries(given.map((r) => [r.filter ?? r.param!, String(desired[r.spec])]));
      const found = await o.resource(client).index(scopeOf(desired)!, { filter });
      // Filters may match partially: a candidate shows every identifying value and no other create-only one.
      return found
        .map((rep) => record(rep, scopeOf(desired)))
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
        throw new Error(`${o.kind} objects cannot be updated: ${Object.keys(params).join(", ")}`);
      await resource.update(href, params);
    },
    delete(client, href) {
      const destroy = () => o.resource(client).destroy(href);
      if (o.deleteRefused === "stall") return destroy();
      // The service refuses (422) while something it knows still uses the object: wait, do not stall.
      return destroyOrWait(destroy, href, o.deleteRetryMs, o.deleteHint);
    },
    diff: (desired, observed) => table.diff(desired, observed),
    immutable: locked,
    writeOnly: table.writeOnlyFields.length > 0 ? (d) => table.writeOnly(d) : undefined,
    atProvider: (obs, applied) => table.atProvider(obs, applied),
    index: {
      scope: (spec, status: ManagedStatus) => {
        if (!o.perCloud) return "";
        const cloud = (spec as Record<string, unknown>)[o.perCloud] ?? status.atProvider?.[o.perCloud];
        return typeof cloud === "string" ? cloud : undefined;
      },
      scopeOfDesired: scopeOf,
      list: async (client, scope, wanted) =>
        (await o.resource(client).index(scope, { wanted })).map((rep) => record(rep, scope)),
    },
  };
}
