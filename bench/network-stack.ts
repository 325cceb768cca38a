// Network kinds: time for N stacks (1 Network, 3 Subnets, 1 NetworkGateway, 4 Routes each;
// 50 stacks = 450 resources) applied children-first to converge to all Ready with 20 ms
// simulator latency, against its lower bound; then the time to delete them all at once and
// what the service is left with. The devcluster and the simulator run in a child process
// (test/operator/infra-process.ts, as bench/operator.ts does) so the operator has its own core.
//
// Lower bound = max(throughput bound, critical path):
// - throughput: (API calls × latency + kube writes × one write's time) / concurrency;
// - critical path: the chain one stack cannot beat — the network (create, show), a subnet
//   (create, show), its `pending` window in the simulator, and the show that finds it available.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import * as k8s from "@kubernetes/client-node";
import pino from "pino";
import { parse } from "yaml";
import { createOperator } from "../src/runtime/command.ts";
import { loadConfig } from "../src/runtime/config.ts";
import { RawKube } from "../src/runtime/kube-raw.ts";
import { GROUP, VERSION } from "../src/runtime/names.ts";
import { SUBNET_PENDING_MS } from "../src/simulator/resources/subnets.ts";
import { PLURALS } from "../test/kinds-network/helpers.ts";
import { networkStack } from "../test/kinds-network/manifests.ts";

const STACKS = Number(process.env.BENCH_NETWORK_STACKS ?? 50);
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const KINDS = ["Network", "Subnet", "NetworkGateway", "Route"];
const ROOT = join(import.meta.dirname, "..");
/** Status and metadata writes a create makes (finalizer+pending, href in status, href annotation, conditions). */
const KUBE_WRITES_PER_CREATE = 4;

async function startInfra(): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
  kubeconfig: string;
  simUrl: string;
}> {
  const child = spawn(process.execPath, [join(ROOT, "test/operator/infra-process.ts")], {
    env: { ...process.env, SIM_LATENCY_MS: String(LATENCY_MS) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`infra process exited with ${code}`)));
  });
  return { child, ...JSON.parse(line) };
}

async function simJson<T>(simUrl: string, what: "stats" | "state"): Promise<T> {
  return (await (await fetch(`${simUrl}/__sim/${what}`)).json()) as T;
}

async function apiCalls(simUrl: string): Promise<number> {
  const stats = await simJson<{ requests: { route: string; count: number }[] }>(simUrl, "stats");
  return stats.requests.filter((r) => r.route.startsWith("/api/")).reduce((n, r) => n + r.count, 0);
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ready = (o: { status?: { conditions?: { type: string; status: string }[] } }) =>
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

export async function run(): Promise<Record<string, unknown>> {
  const infra = await startInfra();
  const kc = new k8s.KubeConfig();
  kc.loadFromString(infra.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const operator = createOperator({
    config: loadConfig(
      { concurrency: String(CONCURRENCY), "api-rate": "10000", "metrics-address": "127.0.0.1:0" },
      {},
    ),
    kubeConfig: kc,
    // BENCH_LOG=<file> keeps the operator's info log for a look at where the time goes.
    log: process.env.BENCH_LOG
      ? pino({ level: "info" }, pino.destination(process.env.BENCH_LOG))
      : pino({ level: "warn" }),
  });
  const raw = new RawKube(kc);
  try {
    for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
      await raw.call(
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        parse(await readFile(join(ROOT, "crds", file), "utf8")),
      );
    }
    const ns = "bench";
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: "creds" }, stringData: { refreshToken: "dev-refresh-token" } },
    });
    const path = (plural: string, name?: string) =>
      `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
    const create = (kind: string, plural: string, name: string, spec: Record<string, unknown>) =>
      raw.call("POST", path(plural), { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec });
    await create("Account", "accounts", "default", {
      endpoint: infra.simUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
    });
    await operator.start();
    await until("Account Ready", () => operator.store.list("Account").some(ready), 30_000);

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
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) {
      await raw.call(
        "PATCH",
        `${path("networks", "s0-main")}/status`,
        { status: { bench: i } },
        "application/merge-patch+json",
      );
    }
    const kubeWriteMs = (performance.now() - t0) / 50;
    const throughputBoundMs =
      (calls * LATENCY_MS + total * KUBE_WRITES_PER_CREATE * kubeWriteMs) / CONCURRENCY;
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
    await operator.stop(5_000);
    await raw.close();
    infra.child.stdin?.end();
    await new Promise((r) => infra.child.once("exit", r));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
