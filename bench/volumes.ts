// Storage figures: N Volumes, each with a RecurringVolumeAttachment referencing it, converging
// with 20 ms simulator latency, against the lower bound `API calls × latency / concurrency` and
// against the minimum of 4 calls per pair (create + show for each object). The attachments are
// applied together with their volumes, so they also measure the dependency wake-up (an
// attachment waits for its Volume to be Ready and is re-queued by the reference index).
// The devcluster and the simulator run in a child process so the operator has its own core.
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import {
  apiStats,
  callBoundMs,
  pool,
  ready,
  startOperatorRig,
  totalCalls,
  until,
} from "./lib/operator-rig.ts";

const N = Number(process.env.BENCH_VOLUMES_N ?? 1000);
const LATENCY_MS = 20;
const CONCURRENCY = 16;

export async function run(): Promise<Record<string, unknown>> {
  const rig = await startOperatorRig({ latencyMs: LATENCY_MS, concurrency: CONCURRENCY });
  const { infra, operator } = rig;
  try {
    const before = await apiStats(infra.simUrl);
    const started = performance.now();
    await pool(
      Array.from({ length: N }, (_, i) => i),
      32,
      async (i) => {
        await rig.create("Volume", "volumes", `vol-${i}`, {
          cloudHref: "/api/clouds/1",
          datacenterHref: "/api/clouds/1/datacenters/1",
          size: 10,
          volumeType: { name: "standard" },
        });
        await rig.create("RecurringVolumeAttachment", "recurringvolumeattachments", `att-${i}`, {
          cloudHref: "/api/clouds/1",
          storageRef: { name: `vol-${i}` },
          runnableHref: "/api/servers/1",
          device: "/dev/xvdb",
        });
      },
    );
    const applied = performance.now();
    await until(
      `${N} Volumes and attachments Ready`,
      () =>
        operator.store.list("Volume").filter(ready).length === N &&
        operator.store.list("RecurringVolumeAttachment").filter(ready).length === N,
      600_000,
    );
    const done = performance.now();
    const after = await apiStats(infra.simUrl);
    const calls = totalCalls(after) - totalCalls(before);
    const byRoute = new Map<string, number>();
    for (const r of after)
      byRoute.set(`${r.method} ${r.route}`, (byRoute.get(`${r.method} ${r.route}`) ?? 0) + r.count);
    for (const r of before)
      byRoute.set(`${r.method} ${r.route}`, (byRoute.get(`${r.method} ${r.route}`) ?? 0) - r.count);
    const lowerBoundMs = callBoundMs(calls, LATENCY_MS, CONCURRENCY);
    const minimumMs = callBoundMs(4 * N, LATENCY_MS, CONCURRENCY);

    const resyncBefore = totalCalls(await apiStats(infra.simUrl));
    const reports = await operator.resyncNow();
    const resyncCalls = totalCalls(await apiStats(infra.simUrl)) - resyncBefore;
    const figures = {
      volumes: N,
      attachments: N,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      applyMs: Math.round(applied - started),
      convergeMs: Math.round(done - started),
      apiCalls: calls,
      apiCallsPerPair: +(calls / N).toFixed(2),
      minimumApiCallsPerPair: 4,
      callsByRoute: Object.fromEntries([...byRoute].filter(([, n]) => n > 0)),
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +((done - started) / lowerBoundMs).toFixed(2),
      ratioToMinimum: +((done - started) / minimumMs).toFixed(2),
      resyncApiCalls: resyncCalls,
      resyncChecked: Object.fromEntries(reports.map((r) => [r.kind, r.checked])),
      operatorRssMb: Math.round(process.memoryUsage().rss / 1e6),
      // The machine is shared: a high load average explains a slow run.
      loadAverage1m: +loadavg()[0]!.toFixed(1),
    };
    console.log(figures);
    return figures;
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
