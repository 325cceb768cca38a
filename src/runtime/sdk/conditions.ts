/**
 * Status conditions as kstatus reads them (Flux `wait: true`, `kubectl wait`):
 * Ready, Synced, Reconciling, Stalled. `lastTransitionTime` moves only when a
 * condition's status flips, so "not Ready for 15 minutes" can be alerted on.
 */

export type ConditionType = "Ready" | "Synced" | "Reconciling" | "Stalled";
export type ConditionStatus = "True" | "False" | "Unknown";

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export type ConditionInput = Omit<Condition, "lastTransitionTime" | "observedGeneration">;

/**
 * A condition's time as Kubernetes writes `metav1.Time`: RFC 3339 in whole seconds. Resources
 * that change within one second then share their conditions in the informer caches
 * (ConditionPool): a cache of 10,000 resources holds a few hundred condition objects, not 40,000.
 */
export function conditionTime(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/**
 * Returns the conditions with `next` applied: a new condition gets `now`, an existing
 * one keeps its lastTransitionTime unless its status changed.
 */
export function setCondition(
  conditions: readonly Condition[],
  next: ConditionInput,
  generation: number | undefined,
  now: Date,
): Condition[] {
  const existing = conditions.find((c) => c.type === next.type);
  const lastTransitionTime =
    existing && existing.status === next.status ? existing.lastTransitionTime : conditionTime(now);
  const updated: Condition = { ...next, lastTransitionTime };
  if (generation !== undefined) updated.observedGeneration = generation;
  const others = conditions.filter((c) => c.type !== next.type);
  return [...others, updated].sort((a, b) => order(a.type) - order(b.type));
}

const ORDER = ["Ready", "Synced", "Reconciling", "Stalled"];
function order(type: string): number {
  const i = ORDER.indexOf(type);
  return i === -1 ? ORDER.length : i;
}

export function getCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === "True";
}

/** kstatus result for one object. */
export type KStatus = "InProgress" | "Current" | "Failed" | "Terminating";

interface StatusReadable {
  metadata?: { generation?: number; deletionTimestamp?: unknown };
  status?: { observedGeneration?: number; conditions?: readonly Condition[] };
}

/**
 * The kstatus rules for a custom resource with standard conditions, as
 * sigs.k8s.io/cli-utils/pkg/kstatus/status computes them.
 */
export function kstatus(object: StatusReadable): KStatus {
  if (object.metadata?.deletionTimestamp) return "Terminating";
  const generation = object.metadata?.generation;
  const observed = object.status?.observedGeneration;
  if (generation !== undefined && (observed === undefined || observed < generation)) return "InProgress";
  const conditions = object.status?.conditions ?? [];
  if (isTrue(conditions, "Reconciling")) return "InProgress";
  if (isTrue(conditions, "Stalled")) return "Failed";
  const ready = getCondition(conditions, "Ready");
  if (ready && ready.status !== "True") return "InProgress";
  return "Current";
}

/** True when two condition lists say the same thing (ignores order). */
export function sameConditions(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((c) => {
    const o = getCondition(y, c.type);
    return (
      o !== undefined &&
      o.status === c.status &&
      o.reason === c.reason &&
      o.message === c.message &&
      o.lastTransitionTime === c.lastTransitionTime &&
      o.observedGeneration === c.observedGeneration
    );
  });
}
