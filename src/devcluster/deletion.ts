import { crdStatus } from "./crd.ts";
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
  if (pre?.uid !== undefined && pre.uid !== om.uid) {
    throw conflict(
      ops.target(type),
      name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(om.uid)}`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== om.resourceVersion) {
    throw conflict(
      ops.target(type),
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in meta: ${String(om.resourceVersion)}`,
    );
  }
  const finalizers = [...finalizersOf(om)];
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
  nm.deletionTimestamp = ops.now();
  nm.deletionGracePeriodSeconds = 0;
  if (finalizers.length > 0) nm.finalizers = finalizers;
  if (typeof nm.generation === "number") nm.generation += 1;
  if (type.resource === "namespaces" && !type.group) {
    next.status = { ...(isObj(next.status) ? next.status : {}), phase: "Terminating" };
  }
  if (type.resource === "customresourcedefinitions") {
    next.status = crdStatus(next, [], ops.now());
  }
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
