import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCr,
  getCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("label selector", () => {
  it("an instance reconciles only the resources its selector matches (Accounts always)", async () => {
    await startOperator(stack, { "label-selector": "shard=a" });
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await createCr(stack, ns, "Deployment", "mine", {}, { labels: { shard: "a" } });
    await createCr(stack, ns, "Deployment", "theirs", {}, { labels: { shard: "b" } });
    await waitForCondition(stack, ns, "Deployment", "mine", "Ready", "True");
    // Give the other one time it would have needed, then check it was left alone.
    await waitForCondition(stack, ns, "Deployment", "mine", "Synced", "True");
    expect((await getCr(stack, ns, "Deployment", "theirs"))?.status).toBeUndefined();
    await startOperator(stack, { "label-selector": "shard=b" });
    await waitForCondition(stack, ns, "Deployment", "theirs", "Ready", "True");
  });
});
