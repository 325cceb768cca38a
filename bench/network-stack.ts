// Network kinds: time for N stacks (1 Network, 3 Subnets, 1 NetworkGateway, 4 Routes each;
// 50 stacks = 450 resources) applied children-first to converge to all Ready with 20 ms
// simulator latency, against its lower bound, and the time to delete them all at once.
//
// Lower bound = max(API calls × latency / concurrency, critical path), where the critical path
// is the dependency chain a single stack cannot beat: the network (create, show), then a subnet
// (create, show), its `pending` window in the simulator, and the show that finds it available.
import { pathToFileURL } from "node:url";
import { SUBNET_PENDING_MS } from "../src/simulator/resources/subnets.ts";
import { apply, remove, simRecords } from "../test/kinds-network/helpers.ts";
import { networkStack } from "../test/kinds-network/manifests.ts";
import {
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "../test/operator/harness.ts";

const STACKS = Number(process.env.BENCH_NETWORK_STACKS ?? 50);
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const KINDS = ["Network", "Subnet", "NetworkGateway", "Route"];

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
    const manifests = Array.from({ length: STACKS }, (_, i) => networkStack(`s${i}-`)).flat();
    const total = manifests.length;
    const countWhere = (
      ok: (o: { status?: { conditions?: { type: string; status: string }[] } }) => boolean,
    ) => KINDS.reduce((n, k) => n + operator.store.list(k).filter(ok).length, 0);
    const ready = () =>
      countWhere(
        (o) => o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false,
      );

    const callsBefore = await apiCalls(stack);
    const started = performance.now();
    // Children first (routes, gateways, subnets, networks), as a GitOps tool applying in any order would.
    await pool([...manifests].reverse(), 32, (m) => apply(stack, ns, m));
    const applied = performance.now();
    await waitFor(`${total} network resources Ready`, async () => ready() === total, 300_000);
    const convergeMs = performance.now() - started;
    const calls = (await apiCalls(stack)) - callsBefore;
    const throughputBoundMs = (calls * LATENCY_MS) / CONCURRENCY;
    const criticalPathMs = SUBNET_PENDING_MS + 5 * LATENCY_MS;
    const lowerBoundMs = Math.max(throughputBoundMs, criticalPathMs);

    const deleteStarted = performance.now();
    await pool(manifests, 32, (m) => remove(stack, ns, m.kind, m.name));
    await waitFor(
      "all network resources gone",
      async () => KINDS.every((k) => operator.store.list(k).length === 0),
      300_000,
    );
    const deleteMs = performance.now() - deleteStarted;
    const leftInService = ["networks", "subnets", "network_gateways", "routes"].reduce(
      (n, c) => n + simRecords(stack, c).length,
      0,
    );
    const figures = {
      stacks: STACKS,
      resources: total,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      applyMs: Math.round(applied - started),
      convergeMs: Math.round(convergeMs),
      apiCalls: calls,
      apiCallsPerResource: +(calls / total).toFixed(2),
      throughputBoundMs: Math.round(throughputBoundMs),
      criticalPathMs,
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +(convergeMs / lowerBoundMs).toFixed(2),
      deleteAllMs: Math.round(deleteMs),
      leftInService,
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
