// What the scale bench measures besides time: the calls the API needs for a desired set, the
// operator's Kubernetes writes (from the devcluster's write hook) and how soon a dependent's create
// follows its parent's Ready (devcluster write times against the simulator's create log).
import { writeFile } from "node:fs/promises";
import { managedKinds } from "../../src/kinds/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import type { Manifest } from "../../test/proof/mixed.ts";
import type { WriteLog } from "../../test/proof/write-log.ts";
import { medianRunBy } from "./median-run.ts";

const KIND_BY_NAME = new Map(managedKinds.map((k) => [k.kind, k]));

/**
 * The service calls a desired set needs, counted from the specs (never from the calls made): one
 * create per resource, and the update each create cannot carry: a gateway's network (attach) and
 * a subnet's route table (the subnet create has no route table parameter).
 */
export function neededCalls(set: Manifest[]): number {
  let n = 0;
  for (const m of set) {
    n += 1;
    if (m.kind === "NetworkGateway" && (m.spec.networkRef || m.spec.networkHref)) n += 1;
    if (m.kind === "Subnet" && (m.spec.routeTableRef || m.spec.routeTableHref)) n += 1;
  }
  return n;
}

/** The references a manifest's create waits for (not those applied after it: afterCreate). */
function createTimeRefs(m: Manifest) {
  const kind = KIND_BY_NAME.get(m.kind)!;
  return kind.references(kind.schema.parse(m.spec)).filter((r) => !r.afterCreate);
}

/** What a run's timing figures are read from: the set, its writes and the service's creates. */
export interface Timing {
  set: Manifest[];
  /** The set's namespace. */
  ns: string;
  writes: WriteLog;
  /** The service object each manifest's resource stands for. */
  hrefOf: (m: Manifest) => string | undefined;
  /** When each object's create reached the service (wall clock, ms). */
  createdAt: Map<string, number>;
  /** The operator's start (wall clock, ms). */
  since: number;
}

export interface DependentStart {
  kind: string;
  /** When the parent it waited for last turned Ready (wall clock, ms). */
  readyAt: number;
  ms: number;
  toIntentMs: number | undefined;
  intentToCreateMs: number | undefined;
}

/**
 * For each resource of the set with create-time references: the time from the Ready write of the
 * parent it waited for last to its create call reaching the simulator (ms). Only the last parent:
 * a child with two parents cannot start before both are Ready, so the earlier one's edge measures
 * the other's wait, not this one's start. References applied after the create (afterCreate) and
 * resources whose parents were Ready before the operator started are left out. Each start is split
 * at the child's create-intent write (the create-pending annotation, the Kubernetes write right
 * before the create call): `toIntentMs`, the parent's Ready to that write (the child's wake-up,
 * its wait in the work queue and its phases before the create: validate, resolve, link checks,
 * batched reads); `intentToCreateMs`, that write to the create at the simulator (the write's
 * answer, the wait for an API connection, the request).
 */
export function dependentStarts({ set, ns, writes, hrefOf, createdAt, since }: Timing): DependentStart[] {
  const out: DependentStart[] = [];
  for (const m of set) {
    const refs = createTimeRefs(m);
    if (refs.length === 0) continue;
    const parentsReady = refs.map((r) => writes.ready(r.kind, ns, r.name));
    if (parentsReady.some((t) => t === undefined)) continue;
    const last = Math.max(...(parentsReady as number[]));
    const href = hrefOf(m);
    const created = href === undefined ? undefined : createdAt.get(href);
    if (created === undefined || last < since) continue;
    const intent = writes.intent(m.kind, ns, m.name);
    out.push({
      kind: m.kind,
      readyAt: last,
      ms: created - last,
      toIntentMs: intent === undefined ? undefined : intent - last,
      intentToCreateMs: intent === undefined ? undefined : created - intent,
    });
  }
  return out;
}

/**
 * Each resource of the set with the parents it waits for at create time, and when (ms after the
 * operator started) it turned Ready, wrote its create intent and was created: where a dependent's
 * start went (which wave of Readys woke it, how long it queued).
 */
export async function writeTimeline(
  file: string,
  { set, ns, writes, hrefOf, createdAt, since }: Timing,
): Promise<void> {
  const after = (t: number | undefined) => (t === undefined ? null : Math.round(t - since));
  const rows = set.map((m) => ({
    kind: m.kind,
    name: m.name,
    parents: createTimeRefs(m).map((r) => `${r.kind}/${r.name}`),
    ready: after(writes.ready(m.kind, ns, m.name)),
    intent: after(writes.intent(m.kind, ns, m.name)),
    created: after(createdAt.get(hrefOf(m) ?? "")),
  }));
  await writeFile(file, JSON.stringify(rows));
}

/** The dependents' start figures of a run (see dependentStarts); the goal is scale-goals.ts's. */
export function startFigures(
  starts: DependentStart[],
  connections: number,
  latencyMs: number,
): Record<string, unknown> {
  const ms = starts.map((s) => s.ms);
  const floor = startFloorP95(
    starts.map((s) => s.readyAt),
    connections,
    latencyMs,
  );
  return {
    dependentStartP95Ms: Math.round(percentile(ms, 95)),
    dependentStartP50Ms: Math.round(percentile(ms, 50)),
    dependentStartMaxMs: Math.round(percentile(ms, 100)),
    dependentStartP95MsByKind: p95ByKind(starts),
    // What the parents' Ready waves leave to any scheduling of the children.
    dependentStartP95FloorMs: Math.round(floor),
    ...startSplit(starts),
    dependentStartEdges: starts.length,
  };
}

/**
 * The p50 and p95 of each part of the starts, split at the child's create-intent write: its
 * wake-up and phases (`ToIntent`), then the create call (`IntentToCreate`).
 */
export function startSplit(starts: DependentStart[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [part, name] of [
    ["toIntentMs", "dependentStartToIntent"],
    ["intentToCreateMs", "dependentStartIntentToCreate"],
  ] as const) {
    const values = starts.flatMap((s) => (s[part] === undefined ? [] : [s[part]]));
    out[`${name}P50Ms`] = Math.round(percentile(values, 50));
    out[`${name}P95Ms`] = Math.round(percentile(values, 95));
  }
  return out;
}

/**
 * The p95 of the starts that no order of the dependents' creates could beat, given when their
 * parents turned Ready: each child's create sent the moment its parent's Ready was written, in
 * that order, with every API connection to the children alone (`connections` calls of
 * `latencyMs` each at once) and nothing else in the way (no Kubernetes write, no roots, no
 * reads). Parents that turn Ready in waves larger than the connections can take in the goal's
 * time keep the starts above it whatever the operator does with the children; only Readys spread
 * out (parents created or observed fewer at a time) bring it down.
 */
export function startFloorP95(readyAts: number[], connections: number, latencyMs: number): number {
  const perCallMs = latencyMs / connections;
  let free = Number.NEGATIVE_INFINITY;
  const waits = [...readyAts]
    .sort((a, b) => a - b)
    .map((t) => {
      const start = Math.max(t, free);
      free = start + perCallMs;
      return start - t;
    });
  return percentile(waits, 95);
}

/** The p95 of each child kind's starts (where the time goes: a leaf kind's lane is served last). */
export function p95ByKind(starts: { kind: string; ms: number }[]): Record<string, number> {
  const by = new Map<string, number[]>();
  for (const s of starts) by.set(s.kind, [...(by.get(s.kind) ?? []), s.ms]);
  return Object.fromEntries([...by].map(([kind, ms]) => [kind, Math.round(percentile(ms, 95))]));
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The service object each manifest's custom resource stands for (its status.href). */
export function hrefOf(all: ManagedObject[]): (m: Manifest) => string | undefined {
  const byName = new Map(all.map((o) => [`${o.kind}/${o.metadata.name}`, o.status?.href]));
  return (m) => byName.get(`${m.kind}/${m.name}`);
}

/** The figures of the run with the median ratio to the lower bound, and the ratio of each run. */
export function medianRun(size: number, runs: Record<string, unknown>[]): Record<string, unknown> {
  const ratio = (r: Record<string, unknown>) => Number(r[`n${size}.ratioToNeededCallsBound`]);
  const median = medianRunBy(runs, ratio);
  if (runs.length === 1) return median;
  return {
    ...runs.at(-1), // what only the last run measured (the resync, the RSS at the largest size)
    ...median,
    [`n${size}.ratioToNeededCallsBoundRuns`]: runs.map(ratio),
    [`n${size}.convergeMsRuns`]: runs.map((r) => r[`n${size}.convergeMs`]),
  };
}
