import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApi } from "../../src/api/index.ts";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  eventReasons,
  namespaceWithAccount,
  type Stack,
  setFaults,
  simCount,
  simDeployments,
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

const named = (name: string) => simDeployments(stack).filter((d) => d.name === name);

describe("no duplicates", () => {
  it("a create whose answer is dropped, then an operator restart, leaves exactly one object", async () => {
    let operator = await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await setFaults(stack, { commitThenDrop: 1 });
    await createCr(stack, ns, "Deployment", "once", {});
    // The service committed the create but the answer never arrived.
    await waitFor("create committed, answer lost", async () => named("once").length === 1);
    await stopOperator(stack, operator);
    expect(stack.logs.join("\n")).toContain("create outcome unknown");
    await setFaults(stack, {});
    operator = await startOperator(stack);
    const cr = await waitForCondition(stack, ns, "Deployment", "once", "Ready", "True");
    expect(named("once")).toHaveLength(1);
    expect(cr.status?.href).toBe(`/api/deployments/${named("once")[0]!.id}`);
    expect(cr.metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    await waitFor("CreatePendingResolved event", async () =>
      (await eventReasons(stack, ns, "once")).includes("CreatePendingResolved"),
    );
    await stopOperator(stack, operator);
  });

  it("a restart that finds create-pending set looks the object up instead of creating it again", async () => {
    const api = createServiceApi({
      endpoint: stack.sim.url,
      accountId: 1,
      auth: { type: "oauth", refreshToken: "dev-refresh-token" },
      rateLimit: false,
    });
    const href = await api.deployments.create({ name: "crashed-after-create" });
    await api.close();
    const ns = await namespaceWithAccount(stack);
    const posts = await simCount(stack, "POST", "/api/deployments");
    await createCr(
      stack,
      ns,
      "Deployment",
      "crashed-after-create",
      {},
      {
        annotations: { [Annotation.createPending]: "2026-01-01T00:00:00Z" },
      },
    );
    const operator = await startOperator(stack);
    const cr = await waitForCondition(stack, ns, "Deployment", "crashed-after-create", "Ready", "True");
    expect(cr.status?.href).toBe(href);
    expect(await simCount(stack, "POST", "/api/deployments")).toBe(posts);
    expect(named("crashed-after-create")).toHaveLength(1);
    await stopOperator(stack, operator);
  });
});
