import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ tls: true });
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("against an apiserver with TLS (CA data in the kubeconfig)", () => {
  it("watches, patches and records events over HTTPS", async () => {
    expect(stack.cluster.url.startsWith("https://")).toBe(true);
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await createCr(stack, ns, "Deployment", "secure", {});
    const o = await waitForCondition(stack, ns, "Deployment", "secure", "Ready", "True");
    expect(o.status?.href).toMatch(/^\/api\/deployments\//);
  });
});
