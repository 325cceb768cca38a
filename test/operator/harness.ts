import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import pino, { type Logger } from "pino";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { createOperator } from "../../src/runtime/command.ts";
import { getCondition } from "../../src/runtime/conditions.ts";
import { loadConfig, type OperatorConfig } from "../../src/runtime/config.ts";
import type { ManagedObject } from "../../src/runtime/kind.ts";
import { RawKube } from "../../src/runtime/kube-raw.ts";
import { GROUP, VERSION } from "../../src/runtime/names.ts";
import type { Operator } from "../../src/runtime/operator.ts";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** devcluster + simulator + CRDs installed; operators are started per test. */
export interface Stack {
  cluster: DevCluster;
  sim: Simulator;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  custom: k8s.CustomObjectsApi;
  operators: Operator[];
  logs: string[];
  close(): Promise<void>;
}

export async function startStack(options: { tls?: boolean } = {}): Promise<Stack> {
  const cluster = await createDevCluster({ tls: options.tls });
  const sim = await createSimulator();
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
    // Raw HTTP: client-node's typed serializer drops the x-kubernetes-* keys of plain objects.
    await new RawKube(kc).call(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      parse(await readFile(join(ROOT, "crds", file), "utf8")),
    );
  }
  const stack: Stack = {
    cluster,
    sim,
    kc,
    core: kc.makeApiClient(k8s.CoreV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    operators: [],
    logs: [],
    close: async () => {
      for (const op of stack.operators) await op.stop(5_000).catch(() => {});
      await sim.close();
      await cluster.close();
    },
  };
  return stack;
}

/** Starts an operator on the stack with fast settings; every log line is kept in `stack.logs`. */
export async function startOperator(
  stack: Stack,
  overrides: Record<string, string | boolean> = {},
): Promise<Operator> {
  const config: OperatorConfig = loadConfig(
    { "metrics-address": "127.0.0.1:0", "lease-duration": "2s", ...overrides },
    {},
  );
  const log: Logger = pino(
    { level: config.logLevel, redact: { paths: ["*.refreshToken", "*.password"], censor: "[redacted]" } },
    { write: (line: string) => void stack.logs.push(line) },
  );
  const operator = createOperator({
    config,
    kubeConfig: stack.kc,
    log,
    api: { retry: { baseDelayMs: 20, maxDelayMs: 200 } },
  });
  stack.operators.push(operator);
  await operator.start();
  return operator;
}

export async function stopOperator(stack: Stack, operator: Operator): Promise<void> {
  await operator.stop(5_000);
  stack.operators = stack.operators.filter((o) => o !== operator);
}

let counter = 0;
/** A fresh namespace with a credentials Secret and a Ready-able Account `default`. */
export async function namespaceWithAccount(
  stack: Stack,
  options: { secretData?: Record<string, string>; account?: Record<string, unknown> } = {},
): Promise<string> {
  const ns = `t${Date.now().toString(36)}-${counter++}`;
  await stack.core.createNamespace({ body: { metadata: { name: ns } } });
  await stack.core.createNamespacedSecret({
    namespace: ns,
    body: {
      metadata: { name: "svc-credentials" },
      stringData: options.secretData ?? { refreshToken: "dev-refresh-token" },
    },
  });
  await createCr(stack, ns, "Account", "default", {
    endpoint: stack.sim.url,
    accountId: 1,
    oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
    ...options.account,
  });
  return ns;
}

const PLURALS: Record<string, string> = { Account: "accounts", Deployment: "deployments" };

export async function createCr(
  stack: Stack,
  namespace: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): Promise<ManagedObject> {
  return (await stack.custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace,
    plural: PLURALS[kind]!,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name, ...metadata }, spec },
  })) as ManagedObject;
}

export async function getCr(
  stack: Stack,
  namespace: string,
  kind: string,
  name: string,
): Promise<ManagedObject | undefined> {
  try {
    return (await stack.custom.getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace,
      plural: PLURALS[kind]!,
      name,
    })) as ManagedObject;
  } catch (error) {
    if (error instanceof k8s.ApiException && error.code === 404) return undefined;
    throw error;
  }
}

export async function patchCr(
  stack: Stack,
  namespace: string,
  kind: string,
  name: string,
  body: Record<string, unknown>,
): Promise<void> {
  await stack.custom.patchNamespacedCustomObject(
    { group: GROUP, version: VERSION, namespace, plural: PLURALS[kind]!, name, body },
    k8s.setHeaderOptions("Content-Type", "application/merge-patch+json"),
  );
}

export async function deleteCr(stack: Stack, namespace: string, kind: string, name: string): Promise<void> {
  await stack.custom.deleteNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace,
    plural: PLURALS[kind]!,
    name,
  });
}

/** Polls until `check` returns a value (not undefined/false), or fails with the last state seen. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
      last = v;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function condition(obj: ManagedObject | undefined, type: string) {
  return getCondition(obj?.status?.conditions, type);
}

/** Waits until the resource has the condition with the given status (and reason, if given). */
export function waitForCondition(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  type: string,
  status: "True" | "False",
  reason?: string,
  timeoutMs?: number,
): Promise<ManagedObject> {
  return waitFor(
    `${kind} ${ns}/${name} ${type}=${status}${reason ? ` (${reason})` : ""}`,
    async () => {
      const o = await getCr(stack, ns, kind, name);
      const c = condition(o, type);
      return c?.status === status &&
        (reason === undefined || c.reason === reason) &&
        o?.status?.observedGeneration === o?.metadata.generation
        ? o
        : undefined;
    },
    timeoutMs,
  );
}

/** The simulator's deployments (by name). */
export function simDeployments(stack: Stack): {
  id: string;
  name: string;
  description: string | null;
  locked: boolean;
  inputs: { name: string; value: string }[];
}[] {
  return (stack.sim.store.snapshot().deployments ?? []) as never;
}

export async function simStats(
  stack: Stack,
): Promise<{ method: string; route: string; status: number; count: number }[]> {
  return (
    stack.sim.core.stats.report() as {
      requests: { method: string; route: string; status: number; count: number }[];
    }
  ).requests;
}

export async function setFaults(stack: Stack, faults: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${stack.sim.url}/__sim/faults`, { method: "POST", body: JSON.stringify(faults) });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

/** Reasons of the Events recorded for one object. */
export async function eventReasons(stack: Stack, ns: string, name: string): Promise<string[]> {
  const list = await stack.core.listNamespacedEvent({ namespace: ns });
  return list.items.filter((e) => e.involvedObject.name === name).map((e) => e.reason ?? "");
}

/** Request count of the simulator for a method and route template (all statuses). */
export async function simCount(stack: Stack, method: string, route: string): Promise<number> {
  return (await simStats(stack))
    .filter((r) => r.method === method && r.route === route)
    .reduce((n, r) => n + r.count, 0);
}
