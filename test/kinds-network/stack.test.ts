import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { FINALIZER } from "../../src/runtime/sdk/index.ts";
import {
  condition,
  namespaceWithAccount,
  type Stack,
  simStats,
  startOperator,
  startStack,
  waitForCondition,
} from "../operator/harness.ts";
import { apply, get, remove, simRecords, until, waitGone, waitReady } from "./helpers.ts";
import { networkStack } from "./manifests.ts";

let stack: Stack;
let operator: Operator;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

const NETWORK_COLLECTIONS = ["networks", "route_tables", "subnets", "network_gateways", "routes"];

describe("the network stack", { timeout: 90_000 }, () => {
  it("applied in reverse dependency order converges to all Ready; deleted at once, leaves nothing behind", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    const manifests = networkStack();
    // One burst, children first: nothing can be created before its parent is Ready.
    await Promise.all([...manifests].reverse().map((m) => apply(stack, ns, m)));
    for (const m of manifests) await waitReady(stack, ns, m.kind, m.name, 30_000);

    const network = (await get(stack, ns, "Network", "main"))!;
    const table = network.status?.atProvider?.defaultRouteTableHref;
    expect(table).toMatch(/^\/api\/route_tables\/\d+$/);
    const gateway = (await get(stack, ns, "NetworkGateway", "igw"))!;
    expect(gateway.status?.atProvider?.networkHref).toBe(network.status?.href);
    const route = (await get(stack, ns, "Route", "default"))!;
    expect(route.status?.atProvider).toMatchObject({
      routeTableHref: table,
      nextHopHref: gateway.status?.href,
    });
    expect(simRecords(stack, "subnets")).toHaveLength(3);
    expect(simRecords(stack, "routes")).toHaveLength(4);
    // The children waited instead of failing against the service. (Which of them the operator
    // meets before their parent is Ready depends on how the apiserver orders a burst: on the
    // real one, sometimes none, so their DependencyNotReady events are not asserted here.)
    const refused = (await simStats(stack)).filter((r) => r.method !== "GET" && r.status >= 400);
    expect(refused).toEqual([]);

    // Drift detection reads each kind through its collection index: one call per kind, none per object.
    const reports = await operator.resyncNow();
    const counts: Record<string, number> = { Network: 1, Subnet: 3, NetworkGateway: 1, Route: 4 };
    for (const [kind, n] of Object.entries(counts)) {
      expect(reports.find((r) => r.kind === kind)).toMatchObject({
        calls: 1,
        checked: n,
        drifted: 0,
        missing: 0,
        individually: 0,
      });
    }

    // Delete everything at once, parents first: the Network waits for its children.
    await Promise.all(manifests.map((m) => remove(stack, ns, m.kind, m.name)));
    const blocked = await until("Network DeletionBlocked (or gone)", async () => {
      const n = await get(stack, ns, "Network", "main");
      const ready = condition(n, "Ready");
      return n === undefined ? "gone" : ready?.reason === "DeletionBlocked" ? ready.message : undefined;
    });
    if (blocked !== "gone") expect(blocked).toMatch(/Subnet sub-\d|Route \w|NetworkGateway igw/);
    for (const m of manifests) await waitGone(stack, ns, m.kind, m.name, 30_000);
    for (const c of NETWORK_COLLECTIONS) expect(simRecords(stack, c), c).toEqual([]);
    // The simulator refuses a network with dependents (422): none was attempted out of order.
    const report = stack.sim.core.stats.report() as {
      requests: { method: string; route: string; status: number }[];
    };
    expect(report.requests.filter((r) => r.method === "DELETE" && r.status >= 400)).toEqual([]);
  }, 90_000);

  it("keeps a Network with children as Ready=False DeletionBlocked, listing them, until they are gone", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    const [net, sub] = networkStack();
    await apply(stack, ns, net!);
    await apply(stack, ns, sub!);
    await waitReady(stack, ns, "Subnet", sub!.name);
    await remove(stack, ns, "Network", net!.name);
    const n = await until("DeletionBlocked", async () => {
      const o = await get(stack, ns, "Network", net!.name);
      return condition(o, "Ready")?.reason === "DeletionBlocked" ? o : undefined;
    });
    expect(condition(n, "Ready")).toMatchObject({
      status: "False",
      message: expect.stringContaining("Subnet sub-1"),
    });
    expect(n.metadata.finalizers).toContain(FINALIZER);
    expect(simRecords(stack, "networks")).toHaveLength(1);
    await remove(stack, ns, "Subnet", sub!.name);
    await waitGone(stack, ns, "Network", net!.name, 30_000);
    for (const c of NETWORK_COLLECTIONS) expect(simRecords(stack, c), c).toEqual([]);
  }, 60_000);

  it("a network the service still refuses to delete (a route named by href) waits, then goes", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    const [net] = networkStack();
    await apply(stack, ns, net!);
    const table = (await waitReady(stack, ns, "Network", net!.name)).status!.atProvider!
      .defaultRouteTableHref;
    await apply(stack, ns, {
      kind: "Route",
      name: "by-href",
      spec: {
        routeTableHref: table,
        destinationCidrBlock: "10.80.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.8",
      },
    });
    await waitReady(stack, ns, "Route", "by-href");
    await remove(stack, ns, "Network", net!.name);
    const n = await until("refused deletion reported", async () => {
      const o = await get(stack, ns, "Network", net!.name);
      return condition(o, "Ready")?.reason === "DeletionBlocked" ? o : undefined;
    });
    expect(condition(n, "Ready")?.message).toMatch(/refuses to delete .* still has routes/);
    expect(condition(n, "Stalled")?.status).not.toBe("True");
    await remove(stack, ns, "Route", "by-href");
    await waitGone(stack, ns, "Network", net!.name, 30_000);
    for (const c of NETWORK_COLLECTIONS) expect(simRecords(stack, c), c).toEqual([]);
  }, 60_000);
});
