/**
 * Shares equal small values between the objects the informer caches hold: a list or an object
 * whose members are all strings, finite numbers, booleans or null (a leaf), with at most
 * `maxMembers` of them. JSON.parse gives every object its own copy of leaves that thousands of
 * objects hold alike: the finalizer list (56 B), `spec.accountRef` (32 B), the empty objects and
 * lists of the status (24-56 B each), references to the same parent: about 140 B per cached
 * resource of the mixed set.
 *
 * Pooled leaves are frozen, as ConditionPool's conditions are: the caches are read-only, and a
 * write to a shared one would change every object that holds it. A frozen value met while walking
 * is taken as pooled already (a condition list, a part kept from the version before). Bounded like
 * the StringPool: it starts over once it holds `size` leaves (leaves already shared stay shared; a
 * value seen again afterwards gets one more copy).
 */
export class LeafPool {
  private pool = new Map<string, object>();
  private readonly size: number;
  private readonly maxMembers: number;

  constructor(options: { size?: number; maxMembers?: number } = {}) {
    this.size = options.size ?? 4096;
    this.maxMembers = options.maxMembers ?? 8;
  }

  /** The pooled copy of `value` when it is a leaf, else `value` itself. */
  intern<T>(value: T): T {
    if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
    const key = this.keyOf(value);
    if (key === undefined) return value;
    const pooled = this.pool.get(key);
    if (pooled !== undefined) return pooled as T;
    if (this.pool.size >= this.size) this.pool = new Map();
    this.pool.set(key, Object.freeze(value));
    return value;
  }

  /** Replaces, in place, every leaf in `value` (objects and lists, at any depth) by its pooled copy. */
  internAll(value: unknown): void {
    if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
    const o = value as Record<string, unknown>;
    for (const key in o) {
      const v = o[key];
      if (v === null || typeof v !== "object") continue;
      const pooled = this.intern(v);
      if (pooled !== v) o[key] = pooled;
      else if (!Object.isFrozen(v)) this.internAll(v);
    }
  }

  get length(): number {
    return this.pool.size;
  }

  /** The leaf's JSON (lists and objects apart, members in order), or undefined for anything else. */
  private keyOf(value: object): string | undefined {
    const isList = Array.isArray(value);
    if (!isList && Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    let members = 0;
    for (const key in value) {
      if (++members > this.maxMembers) return undefined;
      const v = (value as Record<string, unknown>)[key];
      if (v === null || typeof v === "string" || typeof v === "boolean") continue;
      if (typeof v === "number" && Number.isFinite(v)) continue;
      return undefined;
    }
    // A list with holes or extra properties is no plain list: JSON would not say what it holds.
    if (isList && members !== value.length) return undefined;
    return JSON.stringify(value);
  }
}
