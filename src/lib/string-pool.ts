/**
 * Shares equal strings between the objects the informer caches hold. JSON.parse gives every object
 * its own copy of values that thousands of objects share (apiVersion, the finalizer, condition
 * types and reasons, timestamps of the same second, cloud hrefs): ~350 B per cached resource.
 * Bounded: the pool starts over once it holds `size` strings (strings already shared stay shared;
 * a value seen again afterwards gets one more copy).
 */
export class StringPool {
  private pool = new Map<string, string>();
  private readonly size: number;
  private readonly maxLength: number;

  constructor(options: { size?: number; maxLength?: number } = {}) {
    this.size = options.size ?? 8192;
    this.maxLength = options.maxLength ?? 64;
  }

  intern(s: string): string {
    if (s.length > this.maxLength) return s;
    const pooled = this.pool.get(s);
    if (pooled !== undefined) return pooled;
    if (this.pool.size >= this.size) this.pool = new Map();
    this.pool.set(s, s);
    return s;
  }

  /**
   * Replaces, in place, every string in `value` (objects and arrays, at any depth) by its pooled
   * copy. A frozen value is passed over: it is shared already (the caches' LeafPool), its strings
   * pooled when it was, and cannot be written.
   */
  internAll(value: unknown): void {
    if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        if (typeof v === "string") value[i] = this.intern(v);
        else if (v !== null && typeof v === "object") this.internAll(v);
      }
    } else {
      const o = value as Record<string, unknown>;
      for (const key in o) {
        const v = o[key];
        if (typeof v === "string") o[key] = this.intern(v);
        else if (v !== null && typeof v === "object") this.internAll(v);
      }
    }
  }

  get length(): number {
    return this.pool.size;
  }
}
