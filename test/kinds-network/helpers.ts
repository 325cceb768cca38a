import * as k8s from "@kubernetes/client-node";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import type { ManagedObject } from "../../src/runtime/kind.ts";
import { GROUP, VERSION } from "../../src/runtime/names.ts";
import { condition, type Stack, waitFor } from "../operator/harness.ts";

/** Polls until `check` gives a value; 30 s by default, as these tests run beside others on a busy machine. */
export function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  return waitFor(what, check, timeoutMs);
}

/** Plurals of the kinds these tests create (the operator harness knows Account and Deployment). */
export const PLURALS: Record<string, string> = {
  Network: "networks",
  Subnet: "subnets",
  NetworkGateway: "networkgateways",
  Route: "routes",
};

export interface Manifest {
  kind: string;
  name: string;
  spec: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

function target(ns: string, kind: string) {
  return { group: GROUP, version: VERSION, namespace: ns, plural: PLURALS[kind]! };
}

export async function apply(stack: Stack, ns: string, m: Manifest): Promise<ManagedObject> {
  return (await stack.custom.createNamespacedCustomObject({
    ...target(ns, m.kind),
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: m.kind,
      metadata: { name: m.name, ...m.metadata },
      spec: m.spec,
    },
  })) as ManagedObject;
}

export async function get(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
): Promise<ManagedObject | undefined> {
  try {
    return (await stack.custom.getNamespacedCustomObject({ ...target(ns, kind), name })) as ManagedObject;
  } catch (error) {
    if (error instanceof k8s.ApiException && error.code === 404) return undefined;
    throw error;
  }
}

export async function patch(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  body: Record<string, unknown>,
) {
  await stack.custom.patchNamespacedCustomObject(
    { ...{ ...target(ns, kind), name }, body },
    k8s.setHeaderOptions("Content-Type", "application/merge-patch+json"),
  );
}

export async function remove(stack: Stack, ns: string, kind: string, name: string): Promise<void> {
  await stack.custom.deleteNamespacedCustomObject({ ...target(ns, kind), name });
}

/** Waits for a condition computed for the current generation; `reason` and `message` narrow it. */
export function waitForCond(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  type: string,
  status: "True" | "False",
  reason?: string,
  message?: RegExp,
  timeoutMs = 30_000,
): Promise<ManagedObject> {
  let last = "";
  return waitFor(
    `${kind} ${ns}/${name} ${type}=${status}${reason ? ` (${reason})` : ""}`,
    async () => {
      const o = await get(stack, ns, kind, name);
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
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; conditions: ${last}`);
  });
}

export const waitReady = (stack: Stack, ns: string, kind: string, name: string, timeoutMs?: number) =>
  waitForCond(stack, ns, kind, name, "Ready", "True", undefined, undefined, timeoutMs);

export function waitGone(stack: Stack, ns: string, kind: string, name: string, timeoutMs = 30_000) {
  return waitFor(
    `${kind} ${ns}/${name} to be gone`,
    async () => (await get(stack, ns, kind, name)) === undefined,
    timeoutMs,
  );
}

/** The simulator's records of one network collection. */
export function simRecords<T = Record<string, unknown>>(
  stack: Stack,
  collection: string,
): (T & { id: string })[] {
  return ((stack.sim.store.snapshot() as Record<string, unknown[]>)[collection] ?? []) as never;
}

export function serviceApi(stack: Stack): ServiceApi {
  return createServiceApi({
    endpoint: stack.sim.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "dev-refresh-token" },
    rateLimit: false,
  });
}

/** Requests the simulator answered for a method and route template. */
export async function simCalls(stack: Stack, method: string, route: string): Promise<number> {
  const report = stack.sim.core.stats.report() as {
    requests: { method: string; route: string; count: number }[];
  };
  return report.requests
    .filter((r) => r.method === method && r.route === route)
    .reduce((n, r) => n + r.count, 0);
}
