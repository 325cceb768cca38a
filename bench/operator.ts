// Operator figures: reconcile throughput for N new Deployments with 20 ms simulator latency
// against the lower bound `API calls × latency / concurrency`, API calls per resource, and the
// API calls one resync of N in-sync Deployments costs (drift detection through the index), and
// the audit trail's calls and how long it trails the reconciles (BENCH_AUDIT_TRAIL=false: without).
// The devcluster and the simulator run each in a child process, so the operator has its own core
// and the simulated service latency does not queue behind the devcluster's work.
import { pathToFileURL } from "node:url";
import {
  apiCalls,
  auditCalls,
  benchAuditTrail,
  callBoundMs,
  peakWithin,
  ready,
  simJson,
  startOperatorRig,
  until,
} from "./lib/operator-rig.ts";

const N = Number(process.env.BENCH_OPERATOR_N ?? 1000);
const LATENCY_MS = 20;
/** Service calls in flight at once (--api-connections): the bound's concurrency. */
const CONCURRENCY = 16;
/** Reconciles at once: more than the connections, which they keep busy while others write to Kubernetes. */
const RECONCILES = 64;

export async function run(): Promise<Record<string, unknown>> {
  const rig = await startOperatorRig({
    latencyMs: LATENCY_MS,
    concurrency: RECONCILES,
    apiConnections: CONCURRENCY,
  });
  const { infra, operator } = rig;
  try {
    const applier = await rig.applier();
    const callsBefore = await apiCalls(infra.simUrl);
    const auditBefore = await auditCalls(infra.simUrl);
    const rss0 = process.memoryUsage().rss;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    // From another process, as kubectl would: the operator's event loop is what is measured.
    await applier.apply(
      "Deployment",
      "deployments",
      Array.from({ length: N }, (_, i) => `bench-${i}`),
      { description: "bench" },
      32,
    );
    const applied = performance.now();
    await until(
      `${N} Deployments Ready`,
      () => operator.store.list("Deployment").filter(ready).length === N,
      600_000,
    );
    const done = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const calls = (await apiCalls(infra.simUrl)) - callsBefore;
    const auditDuringConverge = (await auditCalls(infra.simUrl)) - auditBefore;
    // The audit trail trails the reconciles (a few calls at once per Account): until every
    // Deployment's entry is recorded.
    if (benchAuditTrail) {
      await until(
        "every audit entry recorded",
        () => operator.store.list("Deployment").filter((o) => o.status?.auditEntryHref).length === N,
        600_000,
      );
    }
    const auditDone = performance.now();
    const audit = (await auditCalls(infra.simUrl)) - auditBefore;
    const lowerBoundMs = callBoundMs(calls, LATENCY_MS, CONCURRENCY);
    const peakInFlight = peakWithin(await simJson(infra.simUrl, "stats"), CONCURRENCY);

    // Timed after convergence: a reconcile that creates makes five such writes.
    const kubeWriteMs = await rig.kubeWriteMs("deployments", "bench-0");

    const before = await apiCalls(infra.simUrl);
    const reports = await operator.resyncNow();
    const resyncCalls = (await apiCalls(infra.simUrl)) - before;
    const sample = operator.store.list("Deployment")[0];
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const figures = {
      deployments: N,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      reconcilesAtOnce: RECONCILES,
      peakCallsInFlight: peakInFlight,
      applyMs: Math.round(applied - started),
      convergeMs: Math.round(done - started),
      apiCalls: calls,
      // Calls until all Ready, the audit calls made meanwhile included (they share the connections).
      apiCallsPerResource: +(calls / N).toFixed(2),
      reconcileApiCallsPerResource: +((calls - auditDuringConverge) / N).toFixed(2),
      // One create each; the objects are read back through batched index reads (a few calls in all).
      minimumApiCallsPerResource: 1,
      auditTrail: benchAuditTrail,
      auditCallsPerResource: +(audit / N).toFixed(2),
      auditCallsDuringConverge: auditDuringConverge,
      auditCaughtUpMs: Math.round(auditDone - started),
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +((done - started) / lowerBoundMs).toFixed(2),
      goalRatio: 1.5,
      kubeWriteMs: +kubeWriteMs.toFixed(2),
      // On a reconcile's critical path: the create and the three writes the no-duplicate protocol
      // needs (create-pending with the finalizer, the href annotation, the status); the writes the
      // operator actually makes per create are measured by the scale bench (kubeWritesPerResource).
      lowerBoundWithKubeWritesMs: Math.round((N * (LATENCY_MS + 3 * kubeWriteMs)) / CONCURRENCY),
      // CPU of this process: the operator, plus the bench applying the resources (a light undici client).
      cpuMsPerResource: +((cpu.user + cpu.system) / 1000 / N).toFixed(2),
      resyncApiCalls: resyncCalls,
      resyncGoal: "< 20",
      resyncChecked: reports.find((r) => r.kind === "Deployment")?.checked,
      operatorRssMb: Math.round(process.memoryUsage().rss / 1e6),
      rssGrowthMb: Math.round((process.memoryUsage().rss - rss0) / 1e6),
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
      heapMeasuredAfterGc: gc !== undefined,
      cachedObjectBytes: JSON.stringify(sample).length,
    };
    console.log(figures);
    return figures;
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
