import { type Linked, linkHref, selfHref } from "../../api/schemas.ts";
import type { FieldDiff } from "../../runtime/sdk/index.ts";
import { deepEqual } from "../../runtime/sdk/index.ts";
import { compact } from "./observe.ts";

/**
 * How a missing value is treated: unset in the spec, null or absent in what the service shows.
 *
 * - `unmanaged` (default): unset in the spec, the field is not managed (not sent, not compared);
 *   null or absent in the service is a value like any other (drift when the spec sets one).
 * - `blank`: null or absent in the service reads as "" (a description); "" in the spec matches
 *   it, and an update sends "" to clear it.
 * - `unshown`: null or absent in the service means the service does not show it (a link some
 *   clouds leave out): not compared. Meant for create-only fields, which nothing could fix anyway.
 * - `none`: unset in the spec means none: compared as null, cleared with "" (a gateway's network:
 *   detached).
 */
export type Empty = "unmanaged" | "blank" | "unshown" | "none";

/**
 * When a value is sent to the service.
 *
 * - `create`: in the create call only (create-only: a change is reported or replaces the object).
 * - `update`: in the create call, and in an update when it differs.
 * - `afterCreate`: only in an update: the one after the first observation sets it (what needs the
 *   object to exist first, such as a network's default route table).
 * - `kind`: compared, but sent by the kind's own code, never as a parameter (a lock action).
 * - `read`: read-only: shown in status.atProvider, never compared or sent (a state, an allocated address).
 */
export type Write = "create" | "update" | "afterCreate" | "kind" | "read";

/**
 * One row of a kind's field table: a spec field, its API parameter and where the representation
 * shows it. From the rows come the kind's `diff`, create and update parameters, the observed
 * record, `atProvider` and the write-only values; a kind writes code only for what is special.
 * D is the kind's desired state, O its observed record (`{href, ...}` as `observe` builds it).
 */
// biome-ignore lint/suspicious/noExplicitAny: a row reads kinds' own desired and observed types
export interface Field<D = any, O = any> {
  /** The spec field: what a diff reports, what `immutable` lists, what messages name. */
  spec: string;
  /** The spec field the value came from when the spec may give it another way (an xRef, a cloud by name). */
  from?: (desired: D) => string;
  /** Where the desired state holds the value: a key (default `spec`) or a getter. */
  desired?: string | ((desired: D) => unknown);
  /** The API parameter in create and update calls (snake_case, inside the wrapper hash). */
  param?: string;
  /** The representation's attribute that shows it. */
  attribute?: string;
  /** The representation's link rel that shows it (an href). */
  link?: string;
  /** Key in the observed record (default `spec`). */
  observed?: string;
  /** Key in status.atProvider (default: the observed key); false: not shown there. */
  at?: string | false;
  write: Write;
  empty?: Empty;
  /** Desired value to parameter, where the two differ (a size sent as digits); undefined: not sent. */
  toParam?: (value: unknown) => unknown;
  /** Representation value to observed value, where the two differ (digits read as a number). */
  fromApi?: (raw: unknown) => unknown;
  /**
   * What of the desired value the service shows, where it shows a fingerprint of what was sent
   * (the digest of uploaded content): the diff compares it, the parameter carries the value itself.
   */
  compare?: (value: unknown) => unknown;
  /** Reads the observed value from the record, where no attribute or link shows it (the collection's cloud). */
  read?: (observed: O) => unknown;
  /**
   * The row's own comparison, where equality is not the rule (a set in any order, values of
   * several spellings): the values a difference reports, or undefined when in sync. Asked only
   * for a value the spec manages (see Empty); `have` is null when the service shows none.
   */
  diff?: (want: unknown, have: unknown) => { desired: unknown; observed: unknown } | undefined;
  /**
   * The update parameter of a difference, where the service takes what changed rather than the
   * value (a volume's allowed instances: the hrefs to add and to remove).
   */
  change?: (difference: FieldDiff) => unknown;
  /** Sent in every update call, changed or not, because the API requires it (an IP address's name). */
  always?: boolean;
  /**
   * A value the service takes but never shows, shown in status.atProvider all the same, as last
   * applied (status.applied): what a user wants to read back (an attachment's settings).
   */
  echo?: boolean;
}

/** A row the service never shows (no attribute, link or reader) that is sent: diffed against status.applied. */
function writeOnly(f: Field): boolean {
  const shown = f.attribute !== undefined || f.link !== undefined || f.read !== undefined;
  return !shown && (f.write === "create" || f.write === "update" || f.write === "afterCreate");
}

/** A kind's field table and what derives from it. */
export class FieldTable<D, O> {
  readonly fields: readonly Field<D, O>[];
  /** The spec fields the service never shows (see `writeOnly`). */
  readonly writeOnlyFields: readonly string[];

  constructor(fields: readonly Field<D, O>[]) {
    this.fields = fields;
    this.writeOnlyFields = fields.filter(writeOnly).map((f) => f.spec);
  }

  /** The observed record of a representation: `href`, each row's value by its observed key, and `extra`. */
  observe(representation: Linked, extra: Record<string, unknown> = {}): O {
    const rep = representation as Linked & Record<string, unknown>;
    const out: Record<string, unknown> = { href: selfHref(representation) };
    for (const f of this.fields) {
      if (f.link !== undefined) out[f.observed ?? f.spec] = linkHref(representation, f.link);
      else if (f.attribute !== undefined) {
        const raw = rep[f.attribute] ?? null;
        out[f.observed ?? f.spec] = f.fromApi ? f.fromApi(raw) : raw;
      }
    }
    return (Object.keys(extra).length === 0 ? out : Object.assign(out, extra)) as O;
  }

  /** Pure diff by spec field (see Empty for how missing values compare), in the rows' order. */
  diff(desired: D, observed: O): FieldDiff[] {
    const out: FieldDiff[] = [];
    for (const f of this.fields) {
      // Write-only rows: the runtime diffs them against status.applied.
      if (f.write === "read" || writeOnly(f)) continue;
      const d = this.differs(f, desired, observed);
      if (d) out.push(d);
    }
    return out;
  }

  /** The create parameters: every row sent on create whose desired value is set. */
  createParams<P extends object = Record<string, unknown>>(desired: D): P {
    const p: Record<string, unknown> = {};
    for (const f of this.fields) {
      if (f.param === undefined || (f.write !== "create" && f.write !== "update")) continue;
      this.put(p, f, this.want(f, desired));
    }
    return p as P;
  }

  /** The update parameters for the rows that differ (one call, only what changed, plus `always` rows). */
  updateParams<P extends object = Record<string, unknown>>(diff: readonly FieldDiff[], desired: D): P {
    const changed = new Map(diff.map((d) => [d.field, d]));
    const p: Record<string, unknown> = {};
    for (const f of this.fields) {
      if (f.param === undefined || (f.write !== "update" && f.write !== "afterCreate")) continue;
      const difference = changed.get(this.named(f, desired));
      if (!difference) continue;
      if (f.change) {
        this.put(p, f, f.change(difference));
        continue;
      }
      const want = this.want(f, desired);
      // An unset blank or none value is cleared with "" (the service's way of saying none).
      this.put(p, f, f.empty === "blank" || f.empty === "none" ? (want ?? "") : want);
    }
    if (Object.keys(p).length > 0)
      for (const f of this.fields) if (f.always) this.put(p, f, this.want(f, desired));
    return p as P;
  }

  /**
   * status.atProvider: every row the service shows (or the kind derives), by its atProvider key,
   * and the write-only rows that echo, as `applied` (status.applied) holds them; nulls left out.
   */
  atProvider(observed: O, applied?: Record<string, unknown>): Record<string, unknown> {
    const at: Record<string, unknown> = {};
    for (const f of this.fields) {
      if (f.at === false) continue;
      if (writeOnly(f)) {
        if (f.echo) at[f.at ?? f.spec] = applied?.[f.spec];
        continue;
      }
      at[f.at ?? f.observed ?? f.spec] = this.have(f, observed);
    }
    return compact(at);
  }

  /** The desired values of the rows the service never shows (ManagedKind.writeOnly). */
  writeOnly(desired: D): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of this.fields) if (writeOnly(f)) out[f.spec] = this.want(f, desired);
    return out;
  }

  /** The spec field a row's difference is reported under. */
  named(f: Field<D, O>, desired: D): string {
    return f.from?.(desired) ?? f.spec;
  }

  private want(f: Field<D, O>, desired: D): unknown {
    if (typeof f.desired === "function") return f.desired(desired);
    return (desired as Record<string, unknown>)[f.desired ?? f.spec];
  }

  private have(f: Field<D, O>, observed: O): unknown {
    if (f.read) return f.read(observed);
    return (observed as Record<string, unknown>)[f.observed ?? f.spec];
  }

  private differs(f: Field<D, O>, desired: D, observed: O): FieldDiff | undefined {
    let want = this.want(f, desired);
    if (want !== undefined && f.compare) want = f.compare(want);
    let have = this.have(f, observed) ?? null;
    switch (f.empty ?? "unmanaged") {
      case "unmanaged":
        if (want === undefined) return undefined;
        break;
      case "blank":
        if (want === undefined) return undefined;
        have = have ?? "";
        break;
      case "unshown":
        if (want === undefined || have === null) return undefined;
        break;
      case "none":
        want = want ?? null;
        break;
    }
    if (f.diff) {
      const d = f.diff(want, have);
      return d && { field: this.named(f, desired), ...d };
    }
    return deepEqual(want, have)
      ? undefined
      : { field: this.named(f, desired), desired: want, observed: have };
  }

  private put(p: Record<string, unknown>, f: Field<D, O>, value: unknown): void {
    const v = value !== undefined && f.toParam ? f.toParam(value) : value;
    if (v !== undefined) p[f.param!] = v;
  }
}

/** Rows many kinds share, under their usual names. */
export const rows = {
  name: (write: Write = "update"): Field => ({ spec: "name", param: "name", attribute: "name", write }),
  /** A description: null in the service reads as "", and "" clears it. */
  description: (write: Write = "update"): Field => ({
    spec: "description",
    param: "description",
    attribute: "description",
    write,
    empty: "blank",
  }),
  /** A create-only href shown as a link, not held against the spec where the service leaves it out. */
  createOnlyLink: (spec: string, link: string, param?: string): Field => ({
    spec,
    param,
    link,
    write: "create",
    empty: "unshown",
  }),
  /** Read-only attributes by spec field, shown in status.atProvider: `{ resourceUid: "resource_uid" }`. */
  read: (attributes: Record<string, string>): Field[] =>
    Object.entries(attributes).map(([spec, attribute]) => ({ spec, attribute, write: "read" })),
};
