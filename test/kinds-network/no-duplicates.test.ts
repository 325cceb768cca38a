import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  eventReasons,
  namespaceWithAccount,
  type Stack,
  setFaults,
  startOperator,
  startStack,
  waitForCondition,
} from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  remove,
  simRecords,
  until,
  waitGone,
  waitReady,
} from "./helpers.ts";
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

  it("a Route replacement whose create answer is dropped still ends with exactly one route", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    const [net] = networkStack();
    await apply(stack, ns, net!);
    await waitReady(stack, ns, "Network", net!.name);
    const route = {
      kind: "Route",
      name: "svc",
      spec: {
        networkRef: { name: net!.name },
        destinationCidrBlock: "10.90.0.0/16",
        nextHopType: "url",
        nextHopUrl: "https://a",
      },
    };
    await apply(stack, ns, route);
    await waitReady(stack, ns, "Route", "svc");
    await setFaults(stack, { commitThenDrop: 1 });
    await patch(stack, ns, "Route", "svc", { spec: { nextHopUrl: "https://b" } });
    const routes = () => simRecords<{ next_hop_url: string }>(stack, "routes");
    await until("successor created", async () => routes().some((r) => r.next_hop_url === "https://b"));
    await setFaults(stack, {});
    await until("old route gone, successor adopted", async () => {
      const o = await get(stack, ns, "Route", "svc");
      return (
        routes().length === 1 &&
        o?.status?.atProvider?.nextHopUrl === "https://b" &&
        o.status?.replaces === undefined
      );
    });
    expect(routes().map((r) => r.next_hop_url)).toEqual(["https://b"]);
    await remove(stack, ns, "Route", "svc");
    await deleteAndWaitGone(stack, ns, "Network", net!.name, 60_000);
  });
});
