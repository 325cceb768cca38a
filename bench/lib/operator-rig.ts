// The rig the operator benches share: a devcluster and a simulator, each in a child process
// (test/operator/infra-process.ts) so the operator measured here has its own core, the CRDs
// installed, a namespace with credentials and a Ready Account, and the operator started.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as k8s from "@kubernetes/client-node";
import pino, { type Logger } from "pino";
import { parse } from "yaml";
import { createOperator } from "../../src/run/index.ts";
import { RawKube } from "../../src/runtime/client/index.ts";
import { loadConfig } from "../../src/runtime/config/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { HOOK_TOKEN_ENV } from "../../src/simulator/hook-token.ts";
import { simHook } from "../../test/support/sim-hook.ts";

const ROOT = join(import.meta.dirname, "..", "..");
// The simulators these benches start in child processes take their test-hook token from here.
process.env[HOOK_TOKEN_ENV] ||= randomBytes(24).toString("base64url");

export interface Infra {
  /** The devcluster's process and the simulator's: each its own, as on real machines. */
  children: ChildProcess[];
  url: string;
  token: string;
  kubeconfig: string;
  simUrl: string;
}

export async function startInfraPart(part: "cluster" | "simulator", latencyMs: number) {
  const child = spawn(process.execPath, [join(ROOT, "test/operator/infra-process.ts")], {
    env: { ...process.env, INFRA: part, SIM_LATENCY_MS: String(latencyMs) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`infra process (${part}) exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as Partial<Infra>) };
}

export async function startInfra(latencyMs: number): Promise<Infra> {
  const parts = await Promise.allSettled([
    startInfraPart("cluster", latencyMs),
    startInfraPart("simulator", latencyMs),
  ]);
  const failed = parts.find((p) => p.status === "rejected");
  if (failed) {
    for (const p of parts) if (p.status === "fulfilled") p.value.child.stdin?.end();
    throw failed.reason;
  }
  const [cluster, sim] = parts.map(
    (p) => (p as PromiseFulfilledResult<Awaited<ReturnType<typeof startInfraPart>>>).value,
  ) as [Awaited<ReturnType<typeof startInfraPart>>, Awaited<ReturnType<typeof startInfraPart>>];
  return {
    children: [cluster.child, sim.child],
    url: cluster.url!,
    token: cluster.token!,
    kubeconfig: cluster.kubeconfig!,
    simUrl: sim.simUrl!,
  };
}

/** Stops the infra processes (they exit when their stdin closes). */
export async function stopInfra(infra: Infra): Promise<void> {
  await Promise.all(
    infra.children.map((child) => {
      if (child.exitCode !== null) return undefined;
      const exited = new Promise((r) => child.once("exit", r));
      child.stdin?.end();
      return exited;
    }),
  );
}

export interface SimRequest {
  method: string;
  route: string;
  count: number;
}

export async function simJson<T>(simUrl: string, what: "stats" | "state"): Promise<T> {
  return (await (await simHook(simUrl, what)).json()) as T;
}

/** The simulator's request counts on service routes (`/api/...`). */
export async function apiStats(simUrl: string): Promise<SimRequest[]> {
  const stats = await simJson<{ requests: SimRequest[] }>(simUrl, "stats");
  return stats.requests.filter((r) => r.route.startsWith("/api/"));
}

export const totalCalls = (stats: SimRequest[]) => stats.reduce((n, r) => n + r.count, 0);

export async function apiCalls(simUrl: string): Promise<number> {
  return totalCalls(await apiStats(simUrl));
}

/** The audit trail's calls among them (entry creates and appends). */
export async function auditCalls(simUrl: string): Promise<number> {
  return totalCalls((await apiStats(simUrl)).filter((r) => r.route.startsWith("/api/audit_entries")));
}

/** The Account's audit trail in benches: on (the default) unless BENCH_AUDIT_TRAIL=false. */
export const benchAuditTrail = process.env.BENCH_AUDIT_TRAIL !== "false";

export async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const ready = (o: { status?: { conditions?: { type: string; status: string }[] } }) =>
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

/**
 * The most requests the simulator had in progress at once, from its stats; above `concurrency`
 * the bound `calls × latency / concurrency` would not hold, and the bench fails.
 */
export function peakWithin(stats: { peakInFlight?: number }, concurrency: number): number {
  const peak = stats.peakInFlight ?? 0;
  if (peak > concurrency)
    throw new Error(`the service had ${peak} calls in progress at once; the bound assumes ${concurrency}`);
  return peak;
}

/** The least time `calls` service calls of `latencyMs` each can take through `concurrency` workers. */
export const callBoundMs = (calls: number, latencyMs: number, concurrency: number) =>
  (calls * latencyMs) / concurrency;

export interface Applier {
  apply(
    kind: string,
    plural: string,
    names: string[],
    spec: Record<string, unknown>,
    width: number,
  ): Promise<void>;
}

export interface OperatorRig {
  infra: Infra;
  kc: k8s.KubeConfig;
  operator: Operator;
  /** Raw HTTP to the devcluster: the bench's own client must not eat the operator's CPU. */
  raw: RawKube;
  ns: string;
  /** The devcluster path of a custom resource collection (or one object) in the bench namespace. */
  path(plural: string, name?: string): string;
  create(kind: string, plural: string, name: string, spec: Record<string, unknown>): Promise<unknown>;
  /**
   * A started client process (bench/lib/apply-process.ts) that creates many objects once,
   * `width` requests at a time, as kubectl or Argo CD would from another machine.
   */
  applier(): Promise<Applier>;
  /** Mean time of one status write as the operator makes it (the devcluster is another process). */
  kubeWriteMs(plural: string, name: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the infra and the operator (reconciles and API connections as given, API rate
 * unlimited, warnings logged unless a logger is given) with a Ready Account.
 */
export async function startOperatorRig(options: {
  latencyMs: number;
  concurrency: number;
  /** Service calls in flight at once (--api-connections); the operator's default when unset. */
  apiConnections?: number;
  log?: Logger;
}): Promise<OperatorRig> {
  const infra = await startInfra(options.latencyMs);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(infra.kubeconfig);
  const operator = createOperator({
    config: loadConfig(
      {
        concurrency: String(options.concurrency),
        "api-connections": options.apiConnections === undefined ? undefined : String(options.apiConnections),
        "api-rate": "10000",
        "metrics-address": "127.0.0.1:0",
      },
      {},
    ),
    kubeConfig: kc,
    log: options.log ?? pino({ level: "warn" }),
  });
  const raw = new RawKube(kc);
  const ns = "bench";
  const path = (plural: string, name?: string) =>
    `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
  const rig: OperatorRig = {
    infra,
    kc,
    operator,
    raw,
    ns,
    path,
    create: (kind, plural, name, spec) =>
      raw.call("POST", path(plural), { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec }),
    applier: async () => {
      const child = spawn(process.execPath, [join(ROOT, "bench/lib/apply-process.ts")], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const expectLine = async (line: string) => {
        const next = await lines.next();
        if (next.done || next.value !== line)
          throw new Error(`apply process: expected "${line}", got ${next.done ? "its exit" : next.value}`);
      };
      await expectLine("ready");
      return {
        apply: async (kind, plural, names, spec, width) => {
          const bodies = names.map((name) => ({
            apiVersion: `${GROUP}/${VERSION}`,
            kind,
            metadata: { name },
            spec,
          }));
          child.stdin!.write(
            `${JSON.stringify({ kubeconfig: infra.kubeconfig, path: path(plural), bodies, width })}\n`,
          );
          await expectLine("done");
          child.stdin!.end();
        },
      };
    },
    kubeWriteMs: async (plural, name) => {
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) {
        await raw.call(
          "PATCH",
          `${path(plural, name)}/status`,
          { status: { bench: i } },
          "application/merge-patch+json",
        );
      }
      return (performance.now() - t0) / 50;
    },
    close: async () => {
      await operator.stop(5_000);
      await raw.close();
      await stopInfra(infra);
    },
  };
  try {
    for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
      await raw.call(
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        parse(await readFile(join(ROOT, "crds", file), "utf8")),
      );
    }
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: "creds" }, stringData: { refreshToken: "dev-refresh-token" } },
    });
    await rig.create("Account", "accounts", "default", {
      endpoint: infra.simUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
      ...(benchAuditTrail ? {} : { auditTrail: false }),
    });
    await operator.start();
    await until("Account Ready", () => operator.store.list("Account").some(ready), 30_000);
    return rig;
  } catch (error) {
    await rig.close();
    throw error;
  }
}
