// The simulator the scale bench talks to, in a process of its own (the real service is another
// machine): its stats, latency, per-route counts and create log over its test hooks.
import { readFile } from "node:fs/promises";
import type { OperatorProcess } from "../../test/proof/rig.ts";
import { until } from "../../test/proof/rig.ts";
import { apiCalls, type SimStats } from "../../test/proof/sim.ts";
import { simHook } from "../../test/support/sim-hook.ts";
import { type Infra, simJson, startInfraPart, stopInfra } from "./operator-rig.ts";

/** The simulator in its own process; its stats and faults are read and set over HTTP. */
export interface Service {
  url: string;
  /** The simulator process's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  stats(): Promise<SimStats>;
  close(): Promise<void>;
}

export async function startService(): Promise<Service> {
  const { child, simUrl } = await startInfraPart("simulator", 0);
  return {
    url: simUrl!,
    cpuMs: () => processCpuMs(child.pid!),
    stats: () => simJson<SimStats>(simUrl!, "stats"),
    close: () => stopInfra({ children: [child] } as Infra),
  };
}

export async function setLatency(service: Service, latencyMs: number): Promise<void> {
  const res = await simHook(service.url, "faults", { latencyMs });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

export const calls = async (service: Service) => apiCalls(await service.stats());

/** Simulator calls so far by "METHOD route". */
export async function byRoute(service: Service): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of (await service.stats()).requests) {
    if (!r.route.startsWith("/api/")) continue;
    const key = `${r.method} ${r.route}`;
    out[key] = (out[key] ?? 0) + r.count;
  }
  return out;
}

/** Simulator API calls between two consecutive resyncs of the operator (nothing else going on). */
export async function oneResync(
  service: Service,
  op: OperatorProcess,
): Promise<{ apiCalls: number; indexCalls: number; byRoute: Record<string, number> }> {
  const counter = "svc_operator_resync_api_calls_total";
  const next = async () => {
    const c = await op.metric(counter);
    await until("a resync", async () => (await op.metric(counter)) > c, 60_000, 100);
    // Its reads, one after another, until none has come for a second: at 50,000 a pass takes
    // seconds (each kind's index read and compared in turn), and a fixed wait cut it in two.
    await untilSteady("the resync's last read", () => op.metric(counter), 1_000, 120_000, 100);
  };
  await next();
  const [c0, r0, s0] = [await calls(service), await op.metric(counter), await byRoute(service)];
  await next();
  const s1 = await byRoute(service);
  const diff = Object.fromEntries(
    Object.entries(s1)
      .map(([k, v]) => [k, v - (s0[k] ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6),
  );
  return {
    apiCalls: (await calls(service)) - c0,
    indexCalls: (await op.metric(counter)) - r0,
    byRoute: diff,
  };
}

/**
 * Waits until `reading` has not changed for `quietMs` (a count that stops growing: a pass's
 * reads, an audit trail caught up). Answers how long it waited.
 */
export async function untilSteady(
  what: string,
  reading: () => Promise<unknown>,
  quietMs: number,
  timeoutMs: number,
  everyMs: number,
): Promise<number> {
  const t0 = performance.now();
  let last = await reading();
  let since = performance.now();
  await until(
    what,
    async () => {
      const now = await reading();
      if (now !== last) [last, since] = [now, performance.now()];
      return performance.now() - since >= quietMs;
    },
    timeoutMs,
    everyMs,
  );
  return performance.now() - t0;
}

/** Calls by route between two readings, most first. */
export function routeDiff(from: Record<string, number>, to: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(to)
      .map(([k, v]) => [k, v - (from[k] ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

/** When each object's create reached the service (the simulator's create log), by href. */
export async function createLog(service: Service): Promise<Map<string, number>> {
  const log = (await (await simHook(service.url, "creates")).json()) as { href: string; at: number }[];
  const out = new Map<string, number>();
  for (const { href, at } of log) if (!out.has(href)) out.set(href, at);
  return out;
}

/** User + system CPU time of a process so far, in ms (from /proc; clock ticks of 10 ms). */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts counting the CPU time of the three processes a scale run keeps busy; the answer reads
 * what each spent since. They share the machine's cores: what the devcluster (the bench's own
 * process) and the service spend is CPU the operator does not have.
 */
export async function countCpu(service: Service, op: OperatorProcess) {
  const bench = process.cpuUsage();
  const serviceMs = await service.cpuMs();
  return async () => {
    const spent = process.cpuUsage(bench);
    return {
      operator: await op.cpuMs(),
      devclusterAndBench: Math.round((spent.user + spent.system) / 1000),
      service: (await service.cpuMs()) - serviceMs,
    };
  };
}
