// Network kinds: time for N stacks (1 Network, 3 Subnets, 1 NetworkGateway, 4 Routes each;
// 50 stacks = 450 resources) applied children-first to converge to all Ready with 20 ms
// simulator latency, against its lower bound; then the time to delete them all at once and
// what the service is left with. The devcluster and the simulator run each in a child process
// (test/operator/infra-process.ts, as bench/operator.ts does) so the operator has its own core.
//
// Lower bound = max(throughput bound, critical path):
// - throughput: (API calls × latency + kube writes × one write's time) / concurrency;
// - critical path: the chain one stack cannot beat — the network (create, show), a subnet
//   (create, show), its `pending` window in the simulator, and the show that finds it available.
import { pathToFileURL } from "node:url";
import pino from "pino";
import { SUBNET_PENDING_MS } from "../src/simulator/resources/subnets.ts";
import { PLURALS } from "../test/kinds-network/helpers.ts";
import { networkStack } from "../test/kinds-network/manifests.ts";
import { apiCalls, callBoundMs, pool, ready, simJson, startOperatorRig, until } from "./lib/operator-rig.ts";

const STACKS = Number(process.env.BENCH_NETWORK_STACKS ?? 50);
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const KINDS = ["Network", "Subnet", "NetworkGateway", "Route"];
/** Status and metadata writes a create makes (finalizer+pending, href in status, href annotation, conditions). */
const KUBE_WRITES_PER_CREATE = 4;

export async function run(): Promise<Record<string, unknown>> {
  const rig = await startOperatorRig({
    latencyMs: LATENCY_MS,
    concurrency: CONCURRENCY,
    // BENCH_LOG=<file> keeps the operator's info log for a look at where the time goes.
    log: process.env.BENCH_LOG
      ? pino({ level: "info" }, pino.destination(process.env.BENCH_LOG))
      : pino({ level: "warn" }),
  });
  const { infra, operator, raw, path, create } = rig;
  try {
    const manifests = Array.from({ length: STACKS }, (_, i) => networkStack(`s${i}-`)).flat();
    const total = manifests.length;
    const count = (ok: (o: never) => boolean) =>
      KINDS.reduce((n, k) => n + operator.store.list(k).filter(ok as never).length, 0);

    const callsBefore = await apiCalls(infra.simUrl);
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    // Children first (routes, gateways, subnets, networks), as a GitOps tool applying in any order may.
    await pool([...manifests].reverse(), 32, (m) => create(m.kind, PLURALS[m.kind]!, m.name, m.spec));
    const applied = performance.now();
    // When the last object of each kind became Ready: shows where the time goes.
    const readyAt: Record<string, number> = {};
    await until(
      `${total} network resources Ready`,
      () => {
        for (const k of KINDS) {
          const objects = operator.store.list(k);
          if (
            readyAt[k] === undefined &&
            objects.length > 0 &&
            objects.filter(ready).length === (total / 9) * (k === "Subnet" ? 3 : k === "Route" ? 4 : 1)
          ) {
            readyAt[k] = Math.round(performance.now() - started);
          }
        }
        return count(ready as never) === total;
      },
      300_000,
    );
    const convergeMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const calls = (await apiCalls(infra.simUrl)) - callsBefore;

    // One apiserver write as the operator makes it (another process on the same machine).
    const kubeWriteMs = await rig.kubeWriteMs("networks", "s0-main");
    const throughputBoundMs =
      callBoundMs(calls, LATENCY_MS, CONCURRENCY) +
      (total * KUBE_WRITES_PER_CREATE * kubeWriteMs) / CONCURRENCY;
    const criticalPathMs = SUBNET_PENDING_MS + 5 * LATENCY_MS;
    const lowerBoundMs = Math.max(throughputBoundMs, criticalPathMs);

    const deleteStarted = performance.now();
    await pool(manifests, 32, (m) => raw.call("DELETE", path(PLURALS[m.kind]!, m.name)));
    await until("all network resources gone", () => count((() => true) as never) === 0, 300_000);
    const deleteMs = performance.now() - deleteStarted;
    const state = await simJson<Record<string, unknown[]>>(infra.simUrl, "state");
    const leftInService = ["networks", "subnets", "network_gateways", "routes"].reduce(
      (n, c) => n + (state[c]?.length ?? 0),
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
      kubeWriteMs: +kubeWriteMs.toFixed(2),
      throughputBoundMs: Math.round(throughputBoundMs),
      criticalPathMs,
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +(convergeMs / lowerBoundMs).toFixed(2),
      allReadyAtMs: readyAt,
      cpuMsPerResource: +((cpu.user + cpu.system) / 1000 / total).toFixed(2),
      deleteAllMs: Math.round(deleteMs),
      leftInService,
    };
    console.log(figures);
    return figures;
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
