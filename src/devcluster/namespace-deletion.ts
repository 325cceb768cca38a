import { ApiError } from "./errors.ts";
import { finalizersOf, isObj, type Obj } from "./meta.ts";
import type { Operations } from "./operations.ts";
import type { ResourceType } from "./types.ts";

/**
 * What kube-controller-manager's namespace controller does with a namespace being deleted
 * (pkg/controller/namespace/deletion): delete every object of every namespaced resource in it,
 * count what remains and the finalizers holding it, say so in the namespace's status
 * conditions, and drop the `kubernetes` finalizer from spec.finalizers once nothing remains.
 */

export const NAMESPACE_FINALIZER = "kubernetes";

/** What one pass over a namespace being deleted left behind. */
export interface ContentTotals {
  /** Objects remaining per resource, keyed `<resource>.<group>` (`secrets.` for the core group). */
  remaining: Map<string, number>;
  /** Objects remaining per finalizer they carry. */
  finalizers: Map<string, number>;
  /** Failed deletions, as the error messages read. */
  errors: string[];
}

interface Condition {
  type: string;
  status: "True" | "False";
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** The condition types the namespace controller maintains, in the order it adds them, with their "ok" form. */
const MAINTAINED: { type: string; reason: string; message: string }[] = [
  {
    type: "NamespaceDeletionDiscoveryFailure",
    reason: "ResourcesDiscovered",
    message: "All resources successfully discovered",
  },
  {
    type: "NamespaceDeletionGroupVersionParsingFailure",
    reason: "ParsedGroupVersions",
    message: "All legacy kube types successfully parsed",
  },
  {
    type: "NamespaceDeletionContentFailure",
    reason: "ContentDeleted",
    message: "All content successfully deleted, may be waiting on finalization",
  },
  {
    type: "NamespaceContentRemaining",
    reason: "ContentRemoved",
    message: "All content successfully removed",
  },
  {
    type: "NamespaceFinalizersRemaining",
    reason: "ContentHasNoFinalizers",
    message: "All content-preserving finalizers finished",
  },
];

/** The failing conditions a pass's totals call for (discovery cannot fail here: the registry is local). */
function failing(totals: ContentTotals): Map<string, { reason: string; message: string }> {
  const out = new Map<string, { reason: string; message: string }>();
  const counted = (counts: Map<string, number>, line: (key: string, n: number) => string) =>
    [...counts]
      .filter(([, n]) => n > 0)
      .map(([key, n]) => line(key, n))
      .sort();
  if (totals.errors.length > 0) {
    out.set("NamespaceDeletionContentFailure", {
      reason: "ContentDeletionFailed",
      message: `Failed to delete all resource types, ${totals.errors.length} remaining: ${[...totals.errors].sort().join(", ")}`,
    });
  }
  const resources = counted(totals.remaining, (key, n) => `${key} has ${n} resource instances`);
  if (resources.length > 0) {
    out.set("NamespaceContentRemaining", {
      reason: "SomeResourcesRemain",
      message: `Some resources are remaining: ${resources.join(", ")}`,
    });
  }
  const finalizers = counted(totals.finalizers, (key, n) => `${key} in ${n} resource instances`);
  if (finalizers.length > 0) {
    out.set("NamespaceFinalizersRemaining", {
      reason: "SomeFinalizersRemain",
      message: `Some content in the namespace has finalizers remaining: ${finalizers.join(", ")}`,
    });
  }
  return out;
}

/**
 * The namespace's conditions after a pass, or undefined when they do not change. As the real
 * controller does: a condition's lastTransitionTime moves only when its status flips, and
 * conditions of other types are kept.
 */
export function namespaceConditions(
  current: readonly Obj[],
  totals: ContentTotals,
  now: string,
): Obj[] | undefined {
  const bad = failing(totals);
  const next = current.map((c) => ({ ...c }));
  let changed = false;
  for (const ok of MAINTAINED) {
    const wanted = bad.get(ok.type);
    const status = wanted ? "True" : "False";
    const reason = wanted?.reason ?? ok.reason;
    const message = wanted?.message ?? ok.message;
    const old = next.find((c) => c.type === ok.type);
    if (!old) {
      const added: Condition = { type: ok.type, status, lastTransitionTime: now, reason, message };
      next.push(added as unknown as Obj);
      changed = true;
    } else if (old.status !== status || old.reason !== reason || old.message !== message) {
      if (old.status !== status) old.lastTransitionTime = now;
      Object.assign(old, { status, reason, message });
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/** Deletes what a namespace being deleted still holds; what remains (finalizers) is counted. */
export function deleteContent(ops: Operations, namespace: string): ContentTotals {
  const totals: ContentTotals = { remaining: new Map(), finalizers: new Map(), errors: [] };
  const deleted = new Set<string>();
  for (const type of ops.registry.all()) {
    if (!type.namespaced) continue;
    // Two served resources may share one storage (core and events.k8s.io Events): each is
    // listed and counted, as the controller lists every resource, but deleted once.
    if (!deleted.has(type.storageKey)) {
      deleted.add(type.storageKey);
      for (const object of ops.store.list(type.storageKey, namespace)) {
        try {
          deleteOne(ops, type, object);
        } catch (error) {
          totals.errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    }
    const left = ops.store.list(type.storageKey, namespace);
    if (left.length === 0) continue;
    totals.remaining.set(`${type.resource}.${type.group}`, left.length);
    for (const object of left)
      for (const f of finalizersOf(object.metadata as Obj))
        totals.finalizers.set(f, (totals.finalizers.get(f) ?? 0) + 1);
  }
  return totals;
}

/** One object, deleted as the controller deletes (propagation Background); already deleting: nothing. */
function deleteOne(ops: Operations, type: ResourceType, object: Obj): void {
  const m = object.metadata as Obj;
  if (m.deletionTimestamp) return;
  try {
    ops.delete(
      {
        type,
        version: type.versions[0]!,
        namespace: m.namespace as string,
        manager: "kube-controller-manager",
      },
      String(m.name),
      { propagationPolicy: "Background" },
    );
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 404)) throw error;
  }
}

/**
 * One pass of the namespace controller over a namespace being deleted: its content deleted, its
 * conditions written when they change, and its `kubernetes` finalizer dropped once it is empty
 * (the namespace then goes, unless other spec finalizers or metadata finalizers hold it).
 */
export function finalizeNamespace(ops: Operations, nsType: ResourceType, ns: Obj): void {
  const name = String((ns.metadata as Obj).name);
  const spec = isObj(ns.spec) ? ns.spec : {};
  if (!Array.isArray(spec.finalizers) || !spec.finalizers.includes(NAMESPACE_FINALIZER)) return;
  const totals = deleteContent(ops, name);
  let current = ops.store.get(nsType.storageKey, undefined, name);
  if (!current) return;
  const status = isObj(current.status) ? current.status : {};
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
  const next = namespaceConditions(conditions, totals, ops.now());
  if (next) {
    ops.controllerWrite(
      nsType,
      current,
      (o) => {
        o.status = { ...(isObj(o.status) ? o.status : {}), conditions: next };
      },
      "status",
    );
    current = ops.store.get(nsType.storageKey, undefined, name);
  }
  if (!current || totals.remaining.size > 0 || totals.errors.length > 0) return;
  ops.controllerWrite(nsType, current, (o) => {
    const s = o.spec as Obj;
    s.finalizers = (s.finalizers as string[]).filter((f) => f !== NAMESPACE_FINALIZER);
  });
}
