/** Pure helpers over JSON-like values: comparing them, and dropping their nulls. */

/**
 * The value as the apiserver stores it after a merge patch: null object members mean "delete"
 * in a merge patch (RFC 7386), so they are never stored; arrays are stored as sent, nulls and
 * all. A status computed with null members would never compare equal to what was written,
 * and be written (and seen as drift) again and again.
 */
export function withoutNulls<T>(value: T): T {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = withoutNulls(v);
  return out as T;
}

/**
 * Whether two JSON-like values are equal, keys in any order, an undefined member as none. It
 * allocates nothing: the informer caches compare every new version's parts with the last's.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  let members = 0;
  for (const k in a) {
    if (a[k] === undefined) continue;
    if (!deepEqual(a[k], b[k])) return false;
    members++;
  }
  for (const k in b) if (b[k] !== undefined) members--;
  return members === 0;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
