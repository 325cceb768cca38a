// Operator figures: reconcile throughput for N new Deployments with 20 ms simulator latency
// against the lower bound `API calls × latency / concurrency`, and the API calls one resync
// of N in-sync Deployments costs (drift detection through the index).
import { pathToFileURL } from "node:url";
import {
  createCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "../test/operator/harness.ts";

const N = Number(process.env.BENCH_OPERATOR_N ?? 1000);
const LATENCY_MS = 20;
const CONCURRENCY = 16;

async function apiCalls(stack: Stack): Promise<number> {
  return stack.sim.core.stats
    .report()
    .requests.filter((r) => r.route.startsWith("/api/"))
    .reduce((n, r) => n + r.count, 0);
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function run(): Promise<Record<string, unknown>> {
  const stack = await startStack();
  try {
    const operator = await startOperator(stack, {
      concurrency: String(CONCURRENCY),
      "api-rate": "10000",
      "log-level": "warn",
    });
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await fetch(`${stack.sim.url}/__sim/faults`, {
      method: "POST",
      body: JSON.stringify({ latencyMs: LATENCY_MS }),
    });
    const callsBefore = await apiCalls(stack);
    const rss0 = process.memoryUsage().rss;
    const started = performance.now();
    const names = Array.from({ length: N }, (_, i) => `bench-${i}`);
    await pool(names, 32, (name) => createCr(stack, ns, "Deployment", name, { description: "bench" }));
    const applied = performance.now();
    await waitFor(
      `${N} Deployments Ready`,
      async () =>
        operator.store
          .list("Deployment")
          .filter((d) => d.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"))
          .length === N,
      600_000,
    );
    const convergeMs = performance.now() - started;
    const calls = (await apiCalls(stack)) - callsBefore;
    const lowerBoundMs = (calls * LATENCY_MS) / CONCURRENCY;
    const minimumCalls = N * 2; // a create and the show that fills status.atProvider

    const before = await apiCalls(stack);
    const reports = await operator.resyncNow();
    const resyncCalls = (await apiCalls(stack)) - before;
    const figures = {
      deployments: N,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      applyMs: Math.round(applied - started),
      convergeMs: Math.round(convergeMs),
      apiCalls: calls,
      apiCallsPerResource: +(calls / N).toFixed(2),
      minimumApiCallsPerResource: minimumCalls / N,
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +(convergeMs / lowerBoundMs).toFixed(2),
      goalRatio: 1.5,
      resyncApiCalls: resyncCalls,
      resyncGoal: "< 20",
      resyncReport: reports.find((r) => r.kind === "Deployment"),
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
      rssGrowthMb: Math.round((process.memoryUsage().rss - rss0) / 1e6),
    };
    console.log(figures);
    return figures;
  } finally {
    await stack.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
