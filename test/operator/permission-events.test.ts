import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCr,
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "./harness.ts";

/**
 * Each state change makes one event. A user's Permissions wake each other (siblings) the moment one
 * turns Ready, so a reconcile often reads the cache between a create's two writes (the href
 * annotation, then the status): that is still the operator's own create, not an adoption.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("events of new Permissions", () => {
  it("each is created without an Event: never Adopted or CreatePendingResolved", async () => {
    const ns = await namespaceWithAccount(stack);
    // The sample's pair: user 2 holds no role; actor waits for observer.
    await createCr(stack, ns, "Permission", "user2-observer", {
      userHref: "/api/users/2",
      roleTitle: "observer",
    });
    await createCr(stack, ns, "Permission", "user2-actor", { userHref: "/api/users/2", roleTitle: "actor" });
    for (const name of ["user2-observer", "user2-actor"]) {
      await waitForCondition(stack, ns, "Permission", name, "Ready", "True");
      // Reasons made after Ready (a late reconcile) would show here as well: they are written with the status.
      const reasons = await eventReasons(stack, ns, name);
      expect(reasons, name).not.toContain("Created");
      expect(reasons, name).not.toContain("Adopted");
      expect(reasons, name).not.toContain("CreatePendingResolved");
    }
  });
});
