import * as k8s from "@kubernetes/client-node";
import pino from "pino";
import qs from "qs";
import { Agent } from "undici";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import { managedKinds } from "../../src/kinds/index.ts";
import { createPermissionKind } from "../../src/kinds/permission/kind.ts";
import { createVolumeKind } from "../../src/kinds/volume/kind.ts";
import { createOperator } from "../../src/runtime/command.ts";
import { loadConfig } from "../../src/runtime/config.ts";
import type { ManagedObject } from "../../src/runtime/kind.ts";
import { GROUP, VERSION } from "../../src/runtime/names.ts";
import type { Operator } from "../../src/runtime/operator.ts";
import { condition, type Stack, simStats, waitFor } from "../operator/harness.ts";

/** Plurals of the kinds these tests create (the operator harness knows Account and Deployment). */
const PLURALS: Record<string, string> = {
  Deployment: "deployments",
  Volume: "volumes",
  RecurringVolumeAttachment: "recurringvolumeattachments",
  Permission: "permissions",
};

const target = (ns: string, kind: string) => ({
  group: GROUP,
  version: VERSION,
  namespace: ns,
  plural: PLURALS[kind]!,
});

/**
 * The registered kinds, with the Volume's re-check of the service shortened for tests, and the
 * Permission's made longer than any test waits: ordering among a user's Permissions must come
 * from their waking each other, not from polling.
 */
export function testKinds() {
  const fast: Record<string, unknown> = {
    Volume: createVolumeKind({ deletionRetryMs: 300 }),
    Permission: createPermissionKind({ orderRetryMs: 120_000 }),
  };
  return managedKinds.map((k) => (fast[k.kind] as typeof k | undefined) ?? k);
}

/** A write the operator sent to the service: method, path and the decoded form body. */
export interface SentWrite {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * An operator on the stack like the harness's, with `testKinds()`; every write it sends to the
 * service is recorded in `sent` (decoded), so tests can check exactly what an update carried.
 */
export async function startStorageOperator(stack: Stack, sent: SentWrite[] = []): Promise<Operator> {
  const recording = new Agent().compose((dispatch) => (opts, handler) => {
    if (opts.method !== "GET")
      sent.push({
        method: opts.method,
        path: opts.path,
        body: typeof opts.body === "string" ? (qs.parse(opts.body) as Record<string, unknown>) : {},
      });
    return dispatch(opts, handler);
  });
  const operator = createOperator({
    config: loadConfig({ "metrics-address": "127.0.0.1:0" }, {}),
    kubeConfig: stack.kc,
    log: pino({ level: "debug" }, { write: (line: string) => void stack.logs.push(line) }),
    kinds: testKinds(),
    api: { retry: { baseDelayMs: 20, maxDelayMs: 200 }, dispatcher: recording },
  });
  stack.operators.push(operator);
  await operator.start();
  return operator;
}

export async function apply(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): Promise<ManagedObject> {
  return (await stack.custom.createNamespacedCustomObject({
    ...target(ns, kind),
    body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name, ...metadata }, spec },
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
    { ...target(ns, kind), name, body },
    k8s.setHeaderOptions("Content-Type", "application/merge-patch+json"),
  );
}

export async function remove(stack: Stack, ns: string, kind: string, name: string): Promise<void> {
  await stack.custom.deleteNamespacedCustomObject({ ...target(ns, kind), name });
}

/** The apiserver's answer to a write that admission refuses: status code and causes. */
export async function refusal(
  write: Promise<unknown>,
): Promise<{ code: number; fields: string[]; message: string }> {
  try {
    await write;
  } catch (error) {
    if (error instanceof k8s.ApiException) {
      const body = typeof error.body === "string" ? JSON.parse(error.body) : error.body;
      return {
        code: error.code,
        fields: (body?.details?.causes ?? []).map((c: { field: string }) => c.field),
        message: String(body?.message ?? ""),
      };
    }
    throw error;
  }
  throw new Error("the write was admitted");
}

/** Waits for a condition computed for the current generation; `reason` and `message` narrow it. */
export function waitForCond(
  stack: Stack,
  ns: string,
  kind: string,
  name: string,
  type: string,
  status: "True" | "False",
  options: { reason?: string; message?: RegExp; timeoutMs?: number } = {},
): Promise<ManagedObject> {
  return waitFor(
    `${kind} ${ns}/${name} ${type}=${status} ${options.reason ?? ""} ${options.message ?? ""}`,
    async () => {
      const o = await get(stack, ns, kind, name);
      const c = condition(o, type);
      return c?.status === status &&
        (options.reason === undefined || c.reason === options.reason) &&
        (options.message === undefined || options.message.test(c.message)) &&
        o?.status?.observedGeneration === o?.metadata.generation
        ? o
        : undefined;
    },
    options.timeoutMs ?? 20_000,
  );
}

export function waitGone(stack: Stack, ns: string, kind: string, name: string, timeoutMs = 20_000) {
  return waitFor(
    `${kind} ${ns}/${name} gone`,
    async () => (await get(stack, ns, kind, name)) === undefined,
    timeoutMs,
  );
}

/** Simulator requests with a status of 400 or more on routes matching `route`. */
export async function simErrors(stack: Stack, route: RegExp) {
  return (await simStats(stack)).filter((r) => r.status >= 400 && route.test(r.route));
}

/** Count of simulator requests for a method on routes matching `route` (all statuses). */
export async function simCalls(stack: Stack, method: string, route: RegExp): Promise<number> {
  return (await simStats(stack))
    .filter((r) => r.method === method && route.test(r.route))
    .reduce((n, r) => n + r.count, 0);
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

/** Rows of a simulator collection. */
export function simRows<T = Record<string, unknown>>(stack: Stack, collection: string): T[] {
  return (stack.sim.store.snapshot()[collection] ?? []) as T[];
}
