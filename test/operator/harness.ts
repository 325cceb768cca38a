import * as k8s from "@kubernetes/client-node";
import pino, { type Logger } from "pino";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { crdSources } from "../../src/kinds/index.ts";
import { createOperator } from "../../src/run/index.ts";
import { loadConfig, type OperatorConfig } from "../../src/runtime/config/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { GROUP, getCondition, VERSION } from "../../src/runtime/sdk/index.ts";
import { createSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator/server.ts";
import { simHook } from "../support/sim-hook.ts";
import { clearCustomResources, installCrds, realCluster, type Server, testServer } from "./servers.ts";

export { notOnDevcluster, type Server, testServer } from "./servers.ts";

/** devcluster (or the real apiserver) + simulator + CRDs installed; operators are started per test. */
export interface Stack {
  server: Server;
  /** The devcluster; on the real apiserver only its `kubeconfig`, `url` and `close` are there. */
  cluster: DevCluster;
  sim: Simulator;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  custom: k8s.CustomObjectsApi;
  operators: Operator[];
  logs: string[];
  close(): Promise<void>;
}

export async function startStack(
  options: { tls?: boolean; simulator?: SimulatorOptions; server?: Server } = {},
): Promise<Stack> {
  const server = options.server ?? testServer();
  const cluster = server === "devcluster" ? await createDevCluster({ tls: options.tls }) : realCluster();
  const sim = await createSimulator(options.simulator);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  await installCrds(kc);
  if (server === "kube-apiserver") await clearCustomResources(kc);
  const stack: Stack = {
    server,
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
/** A fresh namespace (named `name`, or a unique name) with a credentials Secret and a Ready-able Account `default`. */
export async function namespaceWithAccount(
  stack: Stack,
  options: { name?: string; secretData?: Record<string, string>; account?: Record<string, unknown> } = {},
): Promise<string> {
  const ns = options.name ?? `t${Date.now().toString(36)}-${counter++}`;
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

/** The plural of every kind the operator serves (Account and the managed kinds), by kind. */
export const PLURALS: Record<string, string> = Object.fromEntries(
  crdSources().map((s) => [s.kind, s.plural]),
);

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
  return waitForConditionWith(stack, ns, kind, name, type, status, {
    reason,
    timeoutMs: timeoutMs ?? 15_000,
  });
}

/**
 * Waits for a condition computed for the current generation; `reason` and `message` narrow it.
 * On a timeout (20 s unless given) the error lists the conditions last seen.
 */
export function waitForConditionWith(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  type: string,
  status: "True" | "False",
  match: { reason?: string; message?: RegExp; timeoutMs?: number } = {},
): Promise<ManagedObject> {
  const { reason, message } = match;
  let last = "";
  return waitFor(
    `${kind} ${ns}/${name} ${type}=${status}${reason ? ` (${reason})` : ""}${message ? ` ${message}` : ""}`,
    async () => {
      const o = await getCr(stack, ns, kind, name);
      const c = condition(o, type);
      const ok =
        c?.status === status &&
        (reason === undefined || c.reason === reason) &&
        (message === undefined || message.test(c.message)) &&
        o?.status?.observedGeneration === o?.metadata.generation;
      if (!ok)
        last = JSON.stringify(
          o?.status?.conditions?.map((x) => `${x.type}=${x.status} ${x.reason}: ${x.message}`),
        );
      return ok ? o : undefined;
    },
    match.timeoutMs ?? 20_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; conditions: ${last}`);
  });
}

/** Waits until the resource is gone from the apiserver; 30 s by default, as deletions wait on the service. */
export function waitGone(stack: Stack, ns: string, kind: string, name: string, timeoutMs = 30_000) {
  return waitFor(
    `${kind} ${ns}/${name} to be gone`,
    async () => (await getCr(stack, ns, kind, name)) === undefined,
    timeoutMs,
  );
}

/** Deletes the resource and waits until it is gone (finalizer released). */
export async function deleteAndWaitGone(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  timeoutMs?: number,
): Promise<void> {
  await deleteCr(stack, ns, kind, name);
  await waitGone(stack, ns, kind, name, timeoutMs);
}

/** A service client of the simulator's account (acts as the seeded admin user 1). */
export function serviceApi(stack: Stack): ServiceApi {
  return createServiceApi({
    endpoint: stack.sim.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "dev-refresh-token" },
    rateLimit: false,
  });
}

/** The simulator's records of one collection. */
export function simRecords<T = Record<string, unknown>>(
  stack: Stack,
  collection: string,
): (T & { id: string })[] {
  return ((stack.sim.store.snapshot() as Record<string, unknown[]>)[collection] ?? []) as never;
}

/** The simulator's deployments (by name). */
export function simDeployments(stack: Stack): {
  id: string;
  name: string;
  description: string | null;
  locked: boolean;
  inputs: { name: string; value: string }[];
}[] {
  return simRecords(stack, "deployments") as never;
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
  const res = await simHook(stack.sim, "faults", faults);
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

/** Reasons of the Events recorded for one object. */
export async function eventReasons(stack: Stack, ns: string, name: string): Promise<string[]> {
  const list = await stack.core.listNamespacedEvent({ namespace: ns });
  return list.items.filter((e) => e.involvedObject.name === name).map((e) => e.reason ?? "");
}

/** Waits for an Event of `reason` about `name`: Events are written beside the status, not before it. */
export async function waitForEventReason(
  stack: Stack,
  ns: string,
  name: string,
  reason: string,
): Promise<void> {
  await waitFor(`a ${reason} Event of ${ns}/${name}`, async () =>
    (await eventReasons(stack, ns, name)).includes(reason),
  );
}

/** Request count of the simulator for a method and a route template, or routes matching a pattern (all statuses). */
export async function simCount(stack: Stack, method: string, route: string | RegExp): Promise<number> {
  const matches = (r: string) => (typeof route === "string" ? r === route : route.test(r));
  return (await simStats(stack))
    .filter((r) => r.method === method && matches(r.route))
    .reduce((n, r) => n + r.count, 0);
}
