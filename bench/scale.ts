// Issue 9 item 1: the operator at scale. For each size (default 1,000 and 5,000) a fresh
// devcluster + simulator (20 ms latency, in this process) and the operator as a child process
// (`svc-operator run`, concurrency 16): the mixed set of every kind with references is applied
// children-first and timed to all Ready, against its lower bound; API calls per resource against
// the minimum the API allows; the API calls of one resync of the in-sync set; CPU time per
// reconcile. At the largest size a second set is added to reach BENCH_SCALE_RSS_TOTAL (default
// 10,000) managed resources, and the child's peak RSS (VmHWM, from /proc) is read at both counts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { managedKinds } from "../src/kinds/index.ts";
import { SUBNET_PENDING_MS } from "../src/simulator/resources/subnets.ts";
import { type Manifest, mixedSet } from "../test/proof/mixed.ts";
import {
  accountNamespace,
  applyManifest,
  isReady,
  listAll,
  OperatorProcess,
  pool,
  type Rig,
  setFaults,
  startRig,
  until,
  waitAccountReady,
} from "../test/proof/rig.ts";
import { apiCalls, type SimStats } from "../test/proof/sim.ts";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "1000,5000").split(",").map(Number);
const RSS_TOTAL = Number(process.env.BENCH_SCALE_RSS_TOTAL ?? 10_000);
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const RESYNC = "15s";
const KINDS = managedKinds.map((k) => k.kind);

/**
 * Writes the API needs per resource: one create each, and a gateway is attached to its network
 * by an update after its create (the create call cannot carry the network).
 */
const MIN_WRITES: Record<string, number> = { NetworkGateway: 2 };
const minimumCalls = (set: Manifest[]) => set.reduce((n, m) => n + (MIN_WRITES[m.kind] ?? 1), 0);

/**
 * The dependency chain no concurrency can shorten, each step a write and a read:
 * Deployment -> Network -> NetworkGateway (create, attach) -> Route, and the subnet's pending window.
 */
const CRITICAL_PATH_MS = Math.max(9 * LATENCY_MS, 4 * LATENCY_MS + SUBNET_PENDING_MS + 2 * LATENCY_MS);

const calls = (rig: Rig) => apiCalls(rig.sim.core.stats.report());

/** Simulator calls so far by "METHOD route". */
function byRoute(rig: Rig): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of (rig.sim.core.stats.report() as SimStats).requests) {
    if (!r.route.startsWith("/api/")) continue;
    const key = `${r.method} ${r.route}`;
    out[key] = (out[key] ?? 0) + r.count;
  }
  return out;
}

async function converge(rig: Rig, ns: string, set: Manifest[], timeoutMs: number): Promise<void> {
  let notReady = 0;
  await until(
    `${set.length} resources Ready in ${ns}`,
    async () => {
      const all = await listAll(rig, ns, KINDS);
      notReady = set.length - all.filter(isReady).length;
      return notReady === 0;
    },
    timeoutMs,
    1000,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (${notReady} not Ready)`);
  });
}

/** Simulator API calls between two consecutive resyncs of the operator (nothing else going on). */
async function oneResync(
  rig: Rig,
  op: OperatorProcess,
): Promise<{ apiCalls: number; indexCalls: number; byRoute: Record<string, number> }> {
  const counter = "svc_operator_resync_api_calls_total";
  const next = async () => {
    const c = await op.metric(counter);
    await until("a resync", async () => (await op.metric(counter)) > c, 60_000, 100);
    await new Promise((r) => setTimeout(r, 1000)); // let the resync's reads finish
  };
  await next();
  const [c0, r0, s0] = [calls(rig), await op.metric(counter), byRoute(rig)];
  await next();
  const s1 = byRoute(rig);
  const diff = Object.fromEntries(
    Object.entries(s1)
      .map(([k, v]) => [k, v - (s0[k] ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6),
  );
  return { apiCalls: calls(rig) - c0, indexCalls: (await op.metric(counter)) - r0, byRoute: diff };
}

async function phase(size: number, withRss: boolean): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-scale-"));
  const rig = await startRig({ dir });
  const op = new OperatorProcess(rig, {
    concurrency: String(CONCURRENCY),
    "api-rate": "10000",
    resync: RESYNC,
    "log-level": "warn",
  });
  try {
    await op.start();
    await accountNamespace(rig, "scale-a");
    await waitAccountReady(rig, "scale-a");
    await setFaults(rig, { latencyMs: LATENCY_MS });
    const set = mixedSet(size, "a");
    const rssIdle = await op.rssMb();
    const [calls0, cpu0, rec0] = [
      calls(rig),
      await op.cpuMs(),
      await op.metric("svc_operator_reconcile_total"),
    ];
    const started = performance.now();
    await pool([...set].reverse(), 32, (m) => applyManifest(rig, "scale-a", m));
    const appliedMs = performance.now() - started;
    await converge(rig, "scale-a", set, 600_000);
    const convergeMs = performance.now() - started;
    const used = calls(rig) - calls0;
    const reconciles = (await op.metric("svc_operator_reconcile_total")) - rec0;
    const cpuMs = (await op.cpuMs()) - cpu0;
    const minimum = minimumCalls(set);
    const lowerBoundMs = Math.max((used * LATENCY_MS) / CONCURRENCY, CRITICAL_PATH_MS);
    const resync = await oneResync(rig, op);
    const figures: Record<string, unknown> = {
      [`n${size}.resources`]: set.length,
      [`n${size}.applyMs`]: Math.round(appliedMs),
      [`n${size}.convergeMs`]: Math.round(convergeMs),
      [`n${size}.convergeAfterApplyMs`]: Math.round(convergeMs - appliedMs),
      [`n${size}.lowerBoundMs`]: Math.round(lowerBoundMs),
      [`n${size}.lowerBoundFromMinimumMs`]: Math.round(
        Math.max((minimum * LATENCY_MS) / CONCURRENCY, CRITICAL_PATH_MS),
      ),
      [`n${size}.ratioToLowerBound`]: +(convergeMs / lowerBoundMs).toFixed(2),
      [`n${size}.ratioGoal`]: "<= 1.5",
      [`n${size}.apiCallsPerResource`]: +(used / set.length).toFixed(2),
      [`n${size}.minimumApiCallsPerResource`]: +(minimum / set.length).toFixed(2),
      [`n${size}.resyncApiCalls`]: resync.apiCalls,
      [`n${size}.resyncIndexCalls`]: resync.indexCalls,
      [`n${size}.resyncCallsByRoute`]: resync.byRoute,
      [`n${size}.resyncGoal`]: "flat in N (a few index calls per kind and account)",
      [`n${size}.reconciles`]: reconciles,
      [`n${size}.cpuMsPerReconcile`]: +(cpuMs / Math.max(1, reconciles)).toFixed(2),
      [`n${size}.operatorRssIdleMb`]: rssIdle,
      [`n${size}.operatorPeakRssMb`]: await op.peakRssMb(),
    };
    console.log(figures);
    if (withRss && RSS_TOTAL > size) {
      // A second namespace brings the operator to RSS_TOTAL managed resources.
      await accountNamespace(rig, "scale-b");
      await waitAccountReady(rig, "scale-b");
      const more = mixedSet(RSS_TOTAL - set.length, "b");
      const t = performance.now();
      await pool([...more].reverse(), 32, (m) => applyManifest(rig, "scale-b", m));
      await converge(rig, "scale-b", more, 600_000);
      figures[`n${set.length + more.length}.convergeMs`] = Math.round(performance.now() - t);
      figures[`n${set.length + more.length}.operatorPeakRssMb`] = await op.peakRssMb();
      figures.rssGoalMb = "< 200 at 10,000";
      console.log(figures);
    }
    return figures;
  } finally {
    await op.kill("SIGTERM");
    await rig.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {
    latencyMs: LATENCY_MS,
    concurrency: CONCURRENCY,
    operator: "child process (svc-operator run); RSS = VmHWM of that process",
    criticalPathMs: CRITICAL_PATH_MS,
  };
  for (const size of SIZES) Object.assign(figures, await phase(size, size === Math.max(...SIZES)));
  console.log(figures);
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
