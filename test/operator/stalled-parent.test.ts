import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  condition,
  createCr,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  simDeployments,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitForConditionWith,
  waitForEventReason,
} from "./harness.ts";

/**
 * A parent the service refuses for good (422: a deployment of that name exists) and the resources
 * waiting for it: they say that it is stalled, why, and that it must be fixed, instead of only
 * that it is not Ready (a `kubectl wait` on them would otherwise run out its timeout unexplained).
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  // The default dependency retry (60 s) is longer than any wait here: the dependents must be
  // told when their parent stalls, not find out by polling.
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

/** The seeded deployment's name: creating another one with it gets the service's 422. */
const TAKEN = "Production";
const STALLED = /Deployment web is Stalled \(ApiError: .*already exists.*\): fix Deployment web first/;

describe("a dependent of a Stalled parent", () => {
  it("says the parent is stalled and why; the chain below it too; fixing the parent releases them all", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    // The dependents first: they wait for a parent that does not exist yet.
    await createCr(stack, ns, "Network", "main", {
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.10.0.0/16",
      deploymentRef: { name: "web" },
    });
    await createCr(stack, ns, "Subnet", "main-a", {
      networkRef: { name: "main" },
      cidrBlock: "10.10.1.0/24",
      datacenterHref: "/api/clouds/1/datacenters/1",
    });
    await createCr(stack, ns, "Volume", "data", {
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      size: 10,
      volumeType: { name: "standard" },
      deploymentRef: { name: "web" },
    });
    await waitForConditionWith(stack, ns, "Network", "main", "Ready", "False", {
      reason: "DependencyNotReady",
      message: /^waiting for spec\.deploymentRef: Deployment web \(not found\)$/,
    });

    await createCr(stack, ns, "Deployment", "web", { name: TAKEN, description: "Web tier" });
    const web = await waitForConditionWith(stack, ns, "Deployment", "web", "Stalled", "True", {
      reason: "ApiError",
      message: /already exists/,
    });
    expect(condition(web, "Reconciling")).toMatchObject({ status: "False", reason: "Idle" });

    for (const kind of ["Network", "Volume"]) {
      const name = kind === "Network" ? "main" : "data";
      const o = await waitForConditionWith(stack, ns, kind, name, "Ready", "False", {
        reason: "DependencyNotReady",
        message: STALLED,
      });
      expect(condition(o, "Ready")?.message).toMatch(
        /^waiting for spec\.deploymentRef: Deployment web is Stalled/,
      );
      // kstatus: still in progress (it waits), not failed: only the parent's spec is wrong.
      expect(condition(o, "Reconciling")?.status).toBe("True");
      expect(condition(o, "Stalled")?.status).toBe("False");
    }
    // One level further down: the Network's own wait, quoted, still names the root.
    await waitForConditionWith(stack, ns, "Subnet", "main-a", "Ready", "False", {
      reason: "DependencyNotReady",
      message:
        /^waiting for spec\.networkRef: Network main is waiting for spec\.deploymentRef: Deployment web is Stalled/,
    });
    await waitFor("a DependencyNotReady event naming the stall", async () => {
      const list = await stack.core.listNamespacedEvent({ namespace: ns });
      return list.items.some(
        (e) =>
          e.involvedObject.name === "data" &&
          e.reason === "DependencyNotReady" &&
          STALLED.test(e.message ?? ""),
      );
    });
    await waitForEventReason(stack, ns, "web", "Stalled");

    // Reconciled again as it is, it stays stalled: the refused create left nothing pending to
    // look up, so the seeded deployment of that name is never taken for its own.
    await patchCr(stack, ns, "Deployment", "web", {
      metadata: { annotations: { [Annotation.reconcileRequestedAt]: "again" } },
    });
    const again = await waitFor("the requested reconcile", async () => {
      const o = await getCr(stack, ns, "Deployment", "web");
      return o?.status?.lastHandledReconcileAt === "again" ? o : undefined;
    });
    expect(again.status?.href).toBeUndefined();
    expect(again.metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(condition(again, "Stalled")?.status).toBe("True");
    expect(simDeployments(stack).filter((d) => d.name === TAKEN)).toHaveLength(1);

    // Fixed: the parent and everything waiting for it become Ready.
    await patchCr(stack, ns, "Deployment", "web", { spec: { name: `web-${ns}` } });
    await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    for (const [kind, name] of [
      ["Network", "main"],
      ["Volume", "data"],
      ["Subnet", "main-a"],
    ] as const)
      await waitForCondition(stack, ns, kind, name, "Ready", "True", undefined, 30_000);
  });
});
