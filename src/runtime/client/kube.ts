import type { ManagedObject } from "../sdk/index.ts";
import { deepEqual, isPlainObject } from "../sdk/index.ts";

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
