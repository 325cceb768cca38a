// Storage figures: N Volumes, each with a RecurringVolumeAttachment referencing it, converging
// with 20 ms simulator latency, against the lower bound `API calls × latency / concurrency` and
// against the minimum of 4 calls per pair (create + show for each object). The attachments are
// applied together with their volumes, so they also measure the dependency wake-up (an
// attachment waits for its Volume to be Ready and is re-queued by the reference index).
// The devcluster and the simulator run in a child process so the operator has its own core.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import * as k8s from "@kubernetes/client-node";
import pino from "pino";
import { parse } from "yaml";
import { createOperator } from "../src/runtime/command.ts";
import { loadConfig } from "../src/runtime/config.ts";
import { GROUP, VERSION } from "../src/runtime/names.ts";

const N = Number(process.env.BENCH_VOLUMES_N ?? 1000);
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

interface Stat {
  method: string;
  route: string;
  count: number;
}

async function stats(simUrl: string): Promise<Stat[]> {
  const body = (await (await fetch(`${simUrl}/__sim/stats`)).json()) as { requests: Stat[] };
  return body.requests.filter((r) => r.route.startsWith("/api/"));
}
const total = (s: Stat[]) => s.reduce((n, r) => n + r.count, 0);

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
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
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
    const create = (kind: string, plural: string, name: string, spec: Record<string, unknown>) =>
      custom.createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns,
        plural,
        body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec },
      });
    await create("Account", "accounts", "default", {
      endpoint: infra.simUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
    });
    await operator.start();
    await until(() => operator.store.list("Account").some(ready), 30_000);

    const before = await stats(infra.simUrl);
    const started = performance.now();
    await pool(
      Array.from({ length: N }, (_, i) => i),
      32,
      async (i) => {
        await create("Volume", "volumes", `vol-${i}`, {
          cloudHref: "/api/clouds/1",
          datacenterHref: "/api/clouds/1/datacenters/1",
          size: 10,
          volumeType: { name: "standard" },
        });
        await create("RecurringVolumeAttachment", "recurringvolumeattachments", `att-${i}`, {
          cloudHref: "/api/clouds/1",
          storageRef: { name: `vol-${i}` },
          runnableHref: "/api/servers/1",
          device: "/dev/xvdb",
        });
      },
    );
    const applied = performance.now();
    await until(
      () =>
        operator.store.list("Volume").filter(ready).length === N &&
        operator.store.list("RecurringVolumeAttachment").filter(ready).length === N,
      600_000,
    );
    const done = performance.now();
    const after = await stats(infra.simUrl);
    const calls = total(after) - total(before);
    const byRoute = new Map<string, number>();
    for (const r of after)
      byRoute.set(`${r.method} ${r.route}`, (byRoute.get(`${r.method} ${r.route}`) ?? 0) + r.count);
    for (const r of before)
      byRoute.set(`${r.method} ${r.route}`, (byRoute.get(`${r.method} ${r.route}`) ?? 0) - r.count);
    const lowerBoundMs = (calls * LATENCY_MS) / CONCURRENCY;
    const minimumMs = (4 * N * LATENCY_MS) / CONCURRENCY;

    const resyncBefore = total(await stats(infra.simUrl));
    const reports = await operator.resyncNow();
    const resyncCalls = total(await stats(infra.simUrl)) - resyncBefore;
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
    await operator.stop(5_000);
    infra.child.stdin?.end();
    await new Promise((r) => infra.child.once("exit", r));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
