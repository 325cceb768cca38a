import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/names.ts";
import {
  eventReasons,
  namespaceWithAccount,
  type Stack,
  setFaults,
  startOperator,
  startStack,
  waitForCondition,
} from "../operator/harness.ts";
import { apply, get, remove, simRecords, until, waitGone, waitReady } from "./helpers.ts";
import { networkStack } from "./manifests.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("no duplicates for the network kinds", { timeout: 120_000 }, () => {
  it("every create's answer dropped after commit: each kind finds its object instead of creating a second", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    const manifests = networkStack();
    await setFaults(stack, { commitThenDrop: 1 });
    await Promise.all(manifests.map((m) => apply(stack, ns, m)));
    // Everything but the gateway's attachment and the route through it needs only creates and reads.
    for (const m of manifests.filter((x) => x.kind !== "NetworkGateway" && x.name !== "default")) {
      await waitReady(stack, ns, m.kind, m.name, 60_000);
    }
    await setFaults(stack, {});
    for (const m of manifests) await waitReady(stack, ns, m.kind, m.name, 60_000);

    expect(simRecords(stack, "networks")).toHaveLength(1);
    expect(simRecords(stack, "subnets")).toHaveLength(3);
    expect(simRecords(stack, "network_gateways")).toHaveLength(1);
    expect(simRecords(stack, "routes")).toHaveLength(4);
    for (const m of manifests) {
      const o = await get(stack, ns, m.kind, m.name);
      expect(o?.metadata.annotations?.[Annotation.createPending], m.name).toBeUndefined();
    }
    await until("CreatePendingResolved events", async () => {
      const reasons = await Promise.all(["main", "sub-1", "to-vpn"].map((n) => eventReasons(stack, ns, n)));
      return reasons.every((r) => r.includes("CreatePendingResolved"));
    });

    await Promise.all(manifests.map((m) => remove(stack, ns, m.kind, m.name)));
    for (const m of manifests) await waitGone(stack, ns, m.kind, m.name, 60_000);
    for (const c of ["networks", "subnets", "network_gateways", "routes"])
      expect(simRecords(stack, c), c).toEqual([]);
  });
});
