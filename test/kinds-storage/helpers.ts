import * as k8s from "@kubernetes/client-node";
import pino from "pino";
import qs from "qs";
import { Agent, FormData } from "undici";
import { afterAll, beforeAll } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { managedKinds } from "../../src/kinds/index.ts";
import { createPermissionKind } from "../../src/kinds/permission/kind.ts";
import { createStoredScriptAttachmentKind } from "../../src/kinds/stored-script-attachment/kind.ts";
import { createVolumeKind } from "../../src/kinds/volume/kind.ts";
import { createOperator } from "../../src/run/index.ts";
import { loadConfig } from "../../src/runtime/config/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { type Stack, serviceApi, simStats, startStack } from "../operator/harness.ts";

export {
  createCr as apply,
  deleteAndWaitGone,
  deleteCr as remove,
  getCr as get,
  patchCr as patch,
  serviceApi,
  simCount as simCalls,
  simRecords as simRows,
  waitForConditionWith as waitForCond,
  waitGone,
} from "../operator/harness.ts";

/** The most a StoredScriptAttachment uploads in tests: content past it fits the devcluster's bodies. */
export const TEST_MAX_CONTENT_BYTES = 64 * 1024;

/**
 * The registered kinds, with the Volume's re-check of the service shortened for tests, and the
 * Permission's made longer than any test waits: ordering among a user's Permissions must come
 * from their waking each other, not from polling. A StoredScriptAttachment takes less content.
 */
export function testKinds() {
  const fast: Record<string, unknown> = {
    Volume: createVolumeKind({ deletionRetryMs: 300 }),
    Permission: createPermissionKind({ orderRetryMs: 120_000 }),
    StoredScriptAttachment: createStoredScriptAttachmentKind({ maxContentBytes: TEST_MAX_CONTENT_BYTES }),
  };
  return managedKinds.map((k) => (fast[k.kind] as typeof k | undefined) ?? k);
}

/** A write the operator sent to the service: method, path and the decoded form body (a file part as `<N bytes>`). */
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
        body:
          typeof opts.body === "string"
            ? (qs.parse(opts.body) as Record<string, unknown>)
            : opts.body instanceof FormData
              ? multipartFields(opts.body)
              : {},
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

/** A multipart body's fields, nested as a form's would be; a file part as its size, never its bytes. */
function multipartFields(form: FormData): Record<string, unknown> {
  const flat = new URLSearchParams();
  for (const [key, value] of form.entries())
    flat.append(key, typeof value === "string" ? value : `<${value.size} bytes>`);
  return qs.parse(flat.toString()) as Record<string, unknown>;
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

/** Simulator requests with a status of 400 or more on routes matching `route`. */
export async function simErrors(stack: Stack, route: RegExp) {
  return (await simStats(stack)).filter((r) => r.status >= 400 && route.test(r.route));
}

/** A test file's stack and operator (see startStorageOperator), set before its tests and closed after. */
export interface OperatorStack {
  stack: Stack;
  operator: Operator;
  /** A service client of the stack's simulator, for the tests' own calls. */
  api: ServiceApi;
  /** Every write the operator sent. */
  sent: SentWrite[];
}

/** Starts a stack and an operator before the file's tests and closes them after (call at the top level). */
export function operatorStack(): OperatorStack {
  const t = { sent: [] } as unknown as OperatorStack;
  beforeAll(async () => {
    t.stack = await startStack();
    t.operator = await startStorageOperator(t.stack, t.sent);
    t.api = serviceApi(t.stack);
  });
  afterAll(async () => {
    await t.api?.close();
    await t.stack?.close();
  });
  return t;
}
