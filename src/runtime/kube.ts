import type { ManagedObject } from "./kind.ts";

/** Where a custom resource lives. */
export interface ObjectRef {
  kind: string;
  plural: string;
  namespace: string;
  name: string;
}

/** Metadata changes the reconciler makes: annotations (null removes) and the finalizer list. */
export interface MetadataPatch {
  annotations?: Record<string, string | null>;
  finalizers?: string[];
}

/**
 * The writes the reconciler makes, always as JSON merge patches (custom resources
 * reject strategic merge). A patch that carries `resourceVersion` fails with
 * ConflictError when the object changed meanwhile.
 */
export interface KubeWriter {
  patchMetadata(ref: ObjectRef, patch: MetadataPatch, resourceVersion?: string): Promise<ManagedObject>;
  patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<ManagedObject>;
  /**
   * A non-optimistic write whose answer the caller does not read (a reconcile's last ones): the
   * object the apiserver sends back is not parsed.
   */
  patchUnread(
    ref: ObjectRef,
    patch: { metadata: MetadataPatch } | { status: Record<string, unknown> },
  ): Promise<void>;
  /** Reads a Secret's decoded data; undefined when it does not exist. */
  readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined>;
}

/** Reads from the informer caches. */
export interface ObjectStore {
  get(kind: string, namespace: string, name: string): ManagedObject | undefined;
  list(kind: string): readonly ManagedObject[];
  /** Why the kind's objects have not been listed yet (RBAC, a missing CRD), if they have not: absent is not gone. */
  unlisted?(kind: string): string | undefined;
}

/** 409 from the apiserver: the object changed since it was read. */
export class ConflictError extends Error {
  override name = "ConflictError";
  readonly code = "CONFLICT";
}

/** 404 from the apiserver: the object is gone. */
export class GoneError extends Error {
  override name = "GoneError";
  readonly code = "GONE";
}

/**
 * RFC 7386 merge patch turning `from` into `to`: objects recurse, removed keys become
 * null, arrays and scalars are replaced. Undefined when nothing changes.
 */
export function mergePatch(from: unknown, to: unknown): unknown {
  if (isPlainObject(from) && isPlainObject(to)) {
    const patch: Record<string, unknown> = {};
    for (const key of Object.keys(from)) if (!(key in to) || to[key] === undefined) patch[key] = null;
    for (const [key, value] of Object.entries(to)) {
      if (value === undefined) continue;
      const sub = mergePatch(from[key], value);
      if (sub !== undefined) patch[key] = sub;
    }
    return Object.keys(patch).length === 0 ? undefined : patch;
  }
  if (deepEqual(from, to)) return undefined;
  return to === undefined ? null : to;
}

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
