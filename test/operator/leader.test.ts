import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  createCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  stopOperator,
  waitFor,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function reconciles(op: Operator): Promise<number> {
  const metric = await op.metrics.reconcileTotal.get();
  return metric.values.reduce((n, v) => n + v.value, 0);
}

describe("leader election", () => {
  it("only the leader reconciles; the standby takes over when the leader stops", async () => {
    const a = await startOperator(stack, {
      "leader-elect": true,
      identity: "op-a",
      "lease-namespace": "default",
    });
    await waitFor("a leads", async () => a.isLeader);
    const b = await startOperator(stack, {
      "leader-elect": true,
      identity: "op-b",
      "lease-namespace": "default",
    });
    const ns = await namespaceWithAccount(stack);
    await createCr(stack, ns, "Deployment", "first", {});
    await waitForCondition(stack, ns, "Deployment", "first", "Ready", "True");
    expect(b.isLeader).toBe(false);
    expect(await reconciles(b)).toBe(0);
    expect(await reconciles(a)).toBeGreaterThan(0);

    await stopOperator(stack, a);
    // The lease is released on a clean stop; a crash would cost at most the lease duration (2 s here).
    await waitFor("b leads", async () => b.isLeader, 10_000);
    await createCr(stack, ns, "Deployment", "second", {});
    await waitForCondition(stack, ns, "Deployment", "second", "Ready", "True");
    expect(await reconciles(b)).toBeGreaterThan(0);
  });
});
