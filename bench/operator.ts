// Operator figures: reconcile throughput for N new Deployments with 20 ms simulator latency
// against the lower bound `API calls × latency / concurrency`, API calls per resource, and the
// API calls one resync of N in-sync Deployments costs (drift detection through the index).
// The devcluster and the simulator run in a child process so the operator has its own core.
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

const N = Number(process.env.BENCH_OPERATOR_N ?? 1000);
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const ROOT = join(import.meta.dirname, "..");

interface Infra {
  child: ChildProcess;
  url: string;
  token: string;
  kubeconfig: string;
  simUrl: string;
}

async function startInfra(): Promise<Infra> {
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

async function apiCalls(simUrl: string): Promise<number> {
  const stats = (await (await fetch(`${simUrl}/__sim/stats`)).json()) as {
    requests: { route: string; count: number }[];
  };
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

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
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
    log: pino({ level: "warn" }),
  });
  try {
    for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
      await fetch(`${infra.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
        method: "POST",
        headers: { authorization: `Bearer ${infra.token}`, "content-type": "application/json" },
        body: JSON.stringify(parse(await readFile(join(ROOT, "crds", file), "utf8"))),
      });
    }
    const ns = "bench";
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: "creds" }, stringData: { refreshToken: "dev-refresh-token" } },
    });
    // Applied with undici directly: the bench's own client must not eat the operator's CPU.
    const applier = new RawKube(kc);
    const create = (kind: string, plural: string, name: string, spec: Record<string, unknown>) =>
      applier.call("POST", `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${plural}`, {
        apiVersion: `${GROUP}/${VERSION}`,
        kind,
        metadata: { name },
        spec,
      });
    await create("Account", "accounts", "default", {
      endpoint: infra.simUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
    });
    await operator.start();
    await until(() => operator.store.list("Account").some(ready), 30_000);

    const callsBefore = await apiCalls(infra.simUrl);
    const rss0 = process.memoryUsage().rss;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    await pool(
      Array.from({ length: N }, (_, i) => `bench-${i}`),
      32,
      (name) => create("Deployment", "deployments", name, { description: "bench" }),
    );
    const applied = performance.now();
    await until(() => operator.store.list("Deployment").filter(ready).length === N, 600_000);
    const done = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const calls = (await apiCalls(infra.simUrl)) - callsBefore;
    const lowerBoundMs = (calls * LATENCY_MS) / CONCURRENCY;

    // One apiserver write as the operator makes it, timed after convergence (the devcluster
    // runs in another process on the same machine): a reconcile that creates makes five.
    const raw = new RawKube(kc);
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) {
      await raw.call(
        "PATCH",
        `/apis/${GROUP}/${VERSION}/namespaces/${ns}/deployments/bench-0/status`,
        { status: { bench: i } },
        "application/merge-patch+json",
      );
    }
    const kubeWriteMs = (performance.now() - t0) / 50;
    await raw.close();

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
      applyMs: Math.round(applied - started),
      convergeMs: Math.round(done - started),
      apiCalls: calls,
      apiCallsPerResource: +(calls / N).toFixed(2),
      minimumApiCallsPerResource: 2,
      lowerBoundMs: Math.round(lowerBoundMs),
      ratioToLowerBound: +((done - started) / lowerBoundMs).toFixed(2),
      goalRatio: 1.5,
      kubeWriteMs: +kubeWriteMs.toFixed(2),
      kubeWritesPerCreate: 5, // create-pending+finalizer, status href, href annotation, final status, Created event
      lowerBoundWithKubeWritesMs: Math.round((N * (2 * LATENCY_MS + 5 * kubeWriteMs)) / CONCURRENCY),
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
    await operator.stop(5_000);
    infra.child.stdin?.end();
    await new Promise((r) => infra.child.once("exit", r));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
