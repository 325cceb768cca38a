import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation, FINALIZER } from "../../src/runtime/names.ts";
import {
  createCr,
  getCr,
  namespaceWithAccount,
  type Stack,
  simDeployments,
  startOperator,
  startStack,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("Deployment end to end", () => {
  it("creates the deployment and becomes Ready with its href", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await createCr(stack, ns, "Deployment", "web", { description: "Web tier", serverTagScope: "deployment" });
    const web = await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    expect(web.status?.href).toMatch(/^\/api\/deployments\/\d+$/);
    expect(web.metadata.annotations?.[Annotation.href]).toBe(web.status?.href);
    expect(web.metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(web.metadata.finalizers).toContain(FINALIZER);
    expect(web.status?.atProvider).toMatchObject({ name: "web", description: "Web tier", locked: false });
    expect(simDeployments(stack).filter((d) => d.name === "web")).toHaveLength(1);
  });
});
