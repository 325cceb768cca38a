import { CRD_CLEANUP_FINALIZER, terminatingCrdStatus } from "./crd.ts";
import { ApiError, conflict } from "./errors.ts";
import { clone, finalizersOf, holdsSpecFinalizers, isObj, type Obj } from "./meta.ts";
import type { DeleteOptions, ListOptions, WriteRequest } from "./requests.ts";
import type { VerbContext } from "./verb-context.ts";

/** DELETE: finalizers (and namespaces' spec.finalizers) hold the object with a deletionTimestamp. */
export function deleteObject(
  ops: VerbContext,
  req: WriteRequest,
  name: string,
  options: DeleteOptions,
): { object: Obj; deleted: boolean } {
  const { type, version } = req;
  const namespace = ops.requireNamespace(type, req.namespace);
  const old = ops.getStored(type, namespace, name);
  const om = old.metadata as Obj;
  const pre = options.preconditions;
  // BeforeDelete's words, which name the kind where other conflicts name the resource.
  const byKind = { group: type.group, resource: type.kind };
  if (pre?.uid !== undefined && pre.uid !== om.uid) {
    throw conflict(
      byKind,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(om.uid)}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== om.resourceVersion) {
    throw conflict(
      byKind,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${String(om.resourceVersion)}). The object might have been modified`,
    );
  }
  const finalizers = [...finalizersOf(om)];
  // A CRD's instances go first: its deletion brings the cleanup finalizer the apiextensions controller removes.
  if (
    !om.deletionTimestamp &&
    type.resource === "customresourcedefinitions" &&
    !finalizers.includes(CRD_CLEANUP_FINALIZER)
  )
    finalizers.push(CRD_CLEANUP_FINALIZER);
  if (!om.deletionTimestamp) {
    if (options.propagationPolicy === "Orphan" && !finalizers.includes("orphan")) finalizers.push("orphan");
    if (options.propagationPolicy === "Foreground" && !finalizers.includes("foregroundDeletion")) {
      finalizers.push("foregroundDeletion");
    }
  }
  const held = finalizers.length > 0 || holdsSpecFinalizers(old);
  if (options.dryRun) return { object: ops.serve(type, version, old), deleted: !held };
  if (!held) {
    const gone = ops.remove(type, old);
    return { object: ops.serve(type, version, gone), deleted: true };
  }
  if (om.deletionTimestamp) return { object: ops.serve(type, version, old), deleted: false };
  const next: Obj = clone(old);
  const nm = next.metadata as Obj;
  const isCrd = type.resource === "customresourcedefinitions";
  nm.deletionTimestamp = ops.now();
  // A CRD's registry writes its deletion itself: no grace period, the same generation.
  if (!isCrd) nm.deletionGracePeriodSeconds = 0;
  if (finalizers.length > 0) nm.finalizers = finalizers;
  if (typeof nm.generation === "number" && !isCrd) nm.generation += 1;
  if (type.resource === "namespaces" && !type.group) {
    next.status = { ...(isObj(next.status) ? next.status : {}), phase: "Terminating" };
  }
  if (isCrd) next.status = terminatingCrdStatus(next, ops.now());
  const ordered = ops.writeModified(type, old, next);
  return { object: ops.serve(type, version, ordered), deleted: false };
}

/** DELETE on a collection: every object the selectors match, as one delete each. */
export function deleteCollection(
  ops: VerbContext,
  req: WriteRequest,
  options: ListOptions & DeleteOptions,
): Obj {
  const { type, version } = req;
  const list = ops.list(type, version, req.namespace, {
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
  });
  const items = list.items as Obj[];
  for (const item of items) {
    const m = item.metadata as Obj;
    try {
      deleteObject(
        ops,
        { ...req, namespace: (m.namespace as string | undefined) ?? req.namespace },
        String(m.name),
        options,
      );
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }
  return list;
}
