import type { KubernetesObject } from "@kubernetes/client-node/dist/types.js";
import { ConditionPool } from "./condition-pool.ts";
import type { StringPool } from "./string-pool.ts";

// What the informer caches keep of each object (the watch hands them over so, kube-watch.ts): a cache of
// thousands of objects is most of the operator's memory.

/**
 * Drops `metadata.managedFields` (controller-runtime's cache transform does the same): nearly half
 * of a small object, and the operator never reads it. The metadata is rebuilt rather than
 * `delete`d from: a deleted property turns the object into a slow dictionary (~450 B more each).
 */
export function withoutManagedFields<T extends { metadata?: object }>(o: T): T {
  const metadata = o.metadata as { managedFields?: unknown } | undefined;
  if (metadata?.managedFields) {
    const { managedFields: _, ...rest } = metadata;
    o.metadata = rest as T["metadata"];
  }
  return o;
}

/**
 * `kubectl apply` (client-side) copies the whole manifest into this annotation of every object it
 * applies: as big as the spec again, unique to each object, and read by nothing in the operator
 * (its writes are merge patches of their own keys, so dropping it from the cache loses nothing).
 */
export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/**
 * What the caches keep of an object: no managedFields, and the strings it shares with other
 * objects pooled (the metadata's unique fields — name, uid, resourceVersion — are left out of the
 * pool, where they would only push out shared ones), its status conditions too.
 */
export function cacheTransform(
  pool: StringPool,
  conditions = new ConditionPool(),
): <T extends KubernetesObject>(o: T) => T {
  return (o) => {
    withoutManagedFields(o);
    if (o.metadata?.annotations?.[LAST_APPLIED] !== undefined) delete o.metadata.annotations[LAST_APPLIED];
    for (const key in o) if (key !== "metadata") pool.internAll((o as Record<string, unknown>)[key]);
    const status = (o as { status?: { conditions?: unknown } }).status;
    if (status?.conditions !== undefined) status.conditions = conditions.intern(status.conditions);
    const metadata = o.metadata;
    if (metadata) {
      if (metadata.namespace) metadata.namespace = pool.intern(metadata.namespace);
      // Whole seconds: the resources applied in one second share it.
      const created = metadata.creationTimestamp as unknown;
      if (typeof created === "string")
        (metadata as { creationTimestamp?: unknown }).creationTimestamp = pool.intern(created);
      pool.internAll(metadata.finalizers);
      pool.internAll(metadata.annotations);
      pool.internAll(metadata.labels);
    }
    if (typeof o.apiVersion === "string") o.apiVersion = pool.intern(o.apiVersion);
    if (typeof o.kind === "string") o.kind = pool.intern(o.kind);
    return o;
  };
}

/** An object reduced to what identifies it and its version (see InformerSetOptions.metadataOnly). */
export function metadataOnly<T extends KubernetesObject>(o: T): T {
  const { name, namespace, resourceVersion, uid } = o.metadata ?? {};
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name, namespace, resourceVersion, uid } } as T;
}
