// What the scale bench measures besides time: the calls the API needs for a desired set, the
// operator's Kubernetes writes (from the devcluster's write hook) and how soon a dependent's create
// follows its parent's Ready (devcluster write times against the simulator's create log).
import { managedKinds } from "../../src/kinds/index.ts";
import type { Manifest } from "../../test/proof/mixed.ts";
import type { WriteLog } from "../../test/proof/write-log.ts";

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

/**
 * For each resource of the set with create-time references: the time from the Ready write of the
 * parent it waited for last to its create call reaching the simulator (ms). Only the last parent:
 * a child with two parents cannot start before both are Ready, so the earlier one's edge measures
 * the other's wait, not this one's start. References applied after the create (afterCreate) and
 * resources whose parents were Ready before the operator started are left out.
 */
export function dependentStarts(
  set: Manifest[],
  ns: string,
  writes: WriteLog,
  hrefOf: (m: Manifest) => string | undefined,
  createdAt: Map<string, number>,
  since: number,
): { kind: string; ms: number }[] {
  const out: { kind: string; ms: number }[] = [];
  for (const m of set) {
    const kind = KIND_BY_NAME.get(m.kind)!;
    const refs = kind.references(kind.schema.parse(m.spec)).filter((r) => !r.afterCreate);
    if (refs.length === 0) continue;
    const parentsReady = refs.map((r) => writes.ready(r.kind, ns, r.name));
    if (parentsReady.some((t) => t === undefined)) continue;
    const last = Math.max(...(parentsReady as number[]));
    const href = hrefOf(m);
    const created = href === undefined ? undefined : createdAt.get(href);
    if (created === undefined || last < since) continue;
    out.push({ kind: m.kind, ms: created - last });
  }
  return out;
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
