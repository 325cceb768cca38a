import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  namespaceWithAccount,
  PLURALS,
  type Stack,
  serviceApi,
  simRecords,
  waitFor,
  waitForCondition,
  waitForConditionWith,
  waitGone,
} from "../operator/harness.ts";

export {
  deleteAndWaitGone,
  deleteCr as remove,
  getCr as get,
  patchCr as patch,
  simCount as simCalls,
} from "../operator/harness.ts";
export { PLURALS, serviceApi, simRecords, waitGone };

/** Polls until `check` gives a value; 30 s by default, as these tests run beside others on a busy machine. */
export function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  return waitFor(what, check, timeoutMs);
}

export interface Manifest {
  kind: string;
  name: string;
  spec: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export function apply(stack: Stack, ns: string, m: Manifest): Promise<ManagedObject> {
  return createCr(stack, ns, m.kind, m.name, m.spec, m.metadata);
}

export const waitReady = (stack: Stack, ns: string, kind: string, name: string, timeoutMs?: number) =>
  waitForConditionWith(stack, ns, kind, name, "Ready", "True", { timeoutMs: timeoutMs ?? 30_000 });

/** A fresh namespace whose Account `default` is Ready. */
export async function readyNamespace(stack: Stack): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}
