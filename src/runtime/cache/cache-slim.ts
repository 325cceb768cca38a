import type { KubernetesObject } from "@kubernetes/client-node/dist/types.js";
import type { StringPool } from "../../lib/index.ts";
import { deepEqual } from "../sdk/index.ts";
import { ConditionPool } from "./condition-pool.ts";
import { LeafPool } from "./leaf-pool.ts";

// What the informer caches keep of each object (the watch hands them over so, kube-watch.ts): a cache of
// thousands of objects is most of the operator's memory.

/**
 * Drops `metadata.managedFields` (controller-runtime's cache transform does the same): nearly half
 * of a small object, and the operator never reads it. The field is set to undefined, neither
 * `delete`d (the object would turn into a slow dictionary, ~450 B more each) nor the metadata
 * copied without it: JSON.parse gives the metadata a slot for each of its fields in the object
 * itself, where a copy keeps four and the rest in a separate array (24 B more, and a copy made
 * per object). An undefined field is as absent to JSON, to deepEqual and to every reader.
 */
export function withoutManagedFields<T extends { metadata?: object }>(o: T): T {
  const metadata = o.metadata as { managedFields?: unknown } | undefined;
  if (metadata?.managedFields !== undefined) metadata.managedFields = undefined;
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
 * pool, where they would only push out shared ones), its status conditions too, and the small
 * values of its spec, status, finalizers and labels (LeafPool; not its annotations, which hold its
 * own href). Given the version the cache holds now (`previous`), the parts equal to that version's
 * are that version's (reusePrevious).
 */
export function cacheTransform(
  pool: StringPool,
  conditions = new ConditionPool(),
  leaves = new LeafPool(),
): <T extends KubernetesObject>(o: T, previous?: KubernetesObject) => T {
  return (o, previous) => {
    withoutManagedFields(o);
    if (o.metadata?.annotations?.[LAST_APPLIED] !== undefined) delete o.metadata.annotations[LAST_APPLIED];
    if (previous) reusePrevious(o, previous);
    for (const key in o) {
      const value = (o as Record<string, unknown>)[key];
      // A part kept from the version before has its strings pooled already.
      if (key !== "metadata" && value !== (previous as Record<string, unknown> | undefined)?.[key])
        pool.internAll(value);
    }
    const status = (o as { status?: { conditions?: unknown } }).status;
    if (status?.conditions !== undefined) status.conditions = conditions.intern(status.conditions);
    // After the conditions: a pooled condition list is frozen, and passed over here.
    for (const key in o) {
      const value = (o as Record<string, unknown>)[key];
      if (key !== "metadata" && value !== (previous as Record<string, unknown> | undefined)?.[key])
        leaves.internAll(value);
    }
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
      if (metadata.finalizers !== undefined) metadata.finalizers = leaves.intern(metadata.finalizers);
      if (metadata.labels !== undefined) metadata.labels = leaves.intern(metadata.labels);
    }
    if (typeof o.apiVersion === "string") o.apiVersion = pool.intern(o.apiVersion);
    if (typeof o.kind === "string") o.kind = pool.intern(o.kind);
    return o;
  };
}

/** The parts of an object that most updates leave as they were (see reusePrevious). */
const KEPT_METADATA = ["annotations", "labels", "finalizers", "ownerReferences"] as const;

/**
 * Replaces, in place, the parts of `o` equal to those of `previous` (the version it replaces) by
 * `previous`'s: its spec, each top-level field of its status (atProvider, ...), its metadata's
 * annotations, labels, finalizers and owner references, its name and uid. Most updates are the
 * operator's own status writes, which change a condition or two: the rest of the new version,
 * just parsed, then dies young instead of being kept while the version it replaces becomes
 * garbage. While converging, the versions that caches replace were much of what survived young
 * collections only to die in the old generation (every resource is written about three times),
 * whose garbage sets how far the heap grows between full collections. Shared parts are never
 * written to: cached objects are read-only.
 */
export function reusePrevious(o: KubernetesObject, previous: KubernetesObject): void {
  const next = o as Record<string, unknown>;
  const prev = previous as Record<string, unknown>;
  if (next.spec !== undefined && deepEqual(next.spec, prev.spec)) next.spec = prev.spec;
  const status = next.status as Record<string, unknown> | undefined;
  const before = prev.status as Record<string, unknown> | undefined;
  if (status && before && typeof status === "object" && typeof before === "object")
    for (const key in status)
      if (key !== "conditions" && typeof status[key] === "object" && deepEqual(status[key], before[key]))
        status[key] = before[key];
  const metadata = o.metadata as Record<string, unknown> | undefined;
  const was = previous.metadata as Record<string, unknown> | undefined;
  if (!metadata || !was) return;
  for (const key of KEPT_METADATA)
    if (metadata[key] !== undefined && deepEqual(metadata[key], was[key])) metadata[key] = was[key];
  // The same object's name and uid: one copy each, not a new one per version.
  for (const key of ["name", "uid"] as const) if (metadata[key] === was[key]) metadata[key] = was[key];
}

/** An object reduced to what identifies it and its version (see InformerSetOptions.metadataOnly). */
export function metadataOnly<T extends KubernetesObject>(o: T): T {
  const { name, namespace, resourceVersion, uid } = o.metadata ?? {};
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name, namespace, resourceVersion, uid } } as T;
}
