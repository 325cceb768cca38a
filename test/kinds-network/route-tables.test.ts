import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { linkHref } from "../../src/api/schemas.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  condition,
  eventReasons,
  type Stack,
  simStats,
  startOperator,
  startStack,
  waitForConditionWith,
  waitForEventReason,
} from "../operator/harness.ts";
import {
  apply,
  get,
  patch,
  readyNamespace as readyNamespaceOf,
  remove,
  serviceApi,
  simRecords,
  until,
  waitGone,
  waitReady,
} from "./helpers.ts";
import { publicPrivate } from "./manifests.ts";

/**
 * RouteTables end to end on the devcluster and the simulator: a network with a public and a
 * private side applied in one burst (the network's default route table a RouteTable that names
 * the network back), a subnet moved to the other side, a subnet re-associated and a route added
 * behind the operator's back, and the ordered deletion of it all.
 */

let stack: Stack;
let operator: Operator;
let api: ServiceApi;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack);
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

const NETWORK_COLLECTIONS = ["networks", "route_tables", "subnets", "network_gateways", "routes"];
const WAIT = 30_000;

const readyNamespace = () => readyNamespaceOf(stack);

const href = async (ns: string, kind: string, name: string) =>
  (await get(stack, ns, kind, name))!.status!.href!;

describe("a network with a public and a private side", { timeout: 120_000 }, () => {
  it("applied at once, children first: all Ready, every association made, no ReferenceCycle; drift read per kind in one call", async () => {
    const ns = await readyNamespace();
    const manifests = publicPrivate();
    await Promise.all([...manifests].reverse().map((m) => apply(stack, ns, m)));
    for (const m of manifests) await waitReady(stack, ns, m.kind, m.name, WAIT);

    const [net, pub, priv] = [
      await href(ns, "Network", "main"),
      await href(ns, "RouteTable", "public"),
      await href(ns, "RouteTable", "private"),
    ];
    // The network's default is its private table: set by the update after both existed.
    await until("default route table set", async () => {
      const n = await get(stack, ns, "Network", "main");
      return n?.status?.atProvider?.defaultRouteTableHref === priv && condition(n, "Ready")?.message === "";
    });
    expect(linkHref(await api.networks.show(net), "default_route_table")).toBe(priv);
    expect(linkHref(await api.routeTables.show(pub), "network")).toBe(net);
    expect(linkHref(await api.subnets.show(await href(ns, "Subnet", "public-a")), "route_table")).toBe(pub);
    expect(linkHref(await api.subnets.show(await href(ns, "Subnet", "private-a")), "route_table")).toBe(priv);
    const route = await href(ns, "Route", "internet");
    expect(linkHref(await api.routes.show(route), "route_table")).toBe(pub);
    for (const m of manifests) {
      const o = await get(stack, ns, m.kind, m.name);
      expect(condition(o, "Stalled")?.reason, `${m.kind} ${m.name}`).not.toBe("ReferenceCycle");
    }
    await waitForEventReason(stack, ns, "main", "Updated");
    expect(await eventReasons(stack, ns, "main")).not.toContain("DriftCorrected");

    // The public table was Ready before its route existed: the route turning Ready wakes it, and it
    // shows the route (the extended view embeds the routes: no call per route), nothing unmanaged.
    const table = await until("the public table shows its route", async () => {
      const t = await get(stack, ns, "RouteTable", "public");
      return t?.status?.atProvider?.routeCount === 1 ? t : undefined;
    });
    expect(condition(table, "Ready")).toMatchObject({ status: "True", reason: "Available" });
    expect(table.status?.atProvider).toMatchObject({ networkHref: net });
    expect(table.status?.atProvider?.routes).toEqual([
      expect.objectContaining({
        href: route,
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
      }),
    ]);

    const reports = await operator.resyncNow();
    for (const kind of ["Network", "RouteTable", "Subnet", "Route"]) {
      expect(
        reports.find((r) => r.kind === kind),
        kind,
      ).toMatchObject({
        calls: 1,
        drifted: 0,
        missing: 0,
        individually: 0,
      });
    }

    // Deleted at once: tables wait for their subnets and routes, the network for the rest, and the
    // network's default table for the network (its deletion takes the table along); nothing left.
    await Promise.all(manifests.map((m) => remove(stack, ns, m.kind, m.name)));
    for (const m of manifests) await waitGone(stack, ns, m.kind, m.name, WAIT);
    for (const c of NETWORK_COLLECTIONS) expect(simRecords(stack, c), c).toEqual([]);
    // Children first: no delete was sent that the service refused (a table still in use).
    const refused = (await simStats(stack)).filter((r) => r.method === "DELETE" && r.status >= 400);
    expect(refused).toEqual([]);
  });

  it("a subnet moved to the other side is re-associated; one re-associated by hand is put back", async () => {
    const ns = await readyNamespace();
    const manifests = publicPrivate("m-");
    for (const m of manifests) await apply(stack, ns, m);
    for (const m of manifests) await waitReady(stack, ns, m.kind, m.name, WAIT);
    const [pub, priv, subnet] = [
      await href(ns, "RouteTable", "m-public"),
      await href(ns, "RouteTable", "m-private"),
      await href(ns, "Subnet", "m-private-a"),
    ];

    await patch(stack, ns, "Subnet", "m-private-a", { spec: { routeTableRef: { name: "m-public" } } });
    await until(
      "moved to the public table",
      async () => linkHref(await api.subnets.show(subnet), "route_table") === pub,
    );
    await waitForConditionWith(stack, ns, "Subnet", "m-private-a", "Ready", "True", { timeoutMs: WAIT });
    expect((await get(stack, ns, "Subnet", "m-private-a"))?.status?.atProvider?.routeTableHref).toBe(pub);

    // Behind the operator's back: the resync finds it (one subnets index) and puts it back.
    await api.subnets.update(subnet, { route_table_href: priv });
    const resync = (await operator.resyncNow()).find((r) => r.kind === "Subnet");
    expect(resync).toMatchObject({ drifted: 1 });
    await until("put back", async () => linkHref(await api.subnets.show(subnet), "route_table") === pub);
    await until("DriftCorrected event", async () =>
      (await eventReasons(stack, ns, "m-private-a")).includes("DriftCorrected"),
    );

    await Promise.all(manifests.map((m) => remove(stack, ns, m.kind, m.name)));
    for (const m of manifests) await waitGone(stack, ns, m.kind, m.name, WAIT);
  });

  it("a route added by hand to a managed table is reported, never deleted; managed by a Route, it is no longer reported", async () => {
    const ns = await readyNamespace();
    const manifests = publicPrivate("h-");
    for (const m of manifests) await apply(stack, ns, m);
    for (const m of manifests) await waitReady(stack, ns, m.kind, m.name, WAIT);
    const pub = await href(ns, "RouteTable", "h-public");
    const byHand = await api.routes.create({
      route_table_href: pub,
      destination_cidr_block: "10.99.0.0/16",
      next_hop_type: "ip_string",
      next_hop_ip: "10.10.1.9",
    });

    const resync = (await operator.resyncNow()).find((r) => r.kind === "RouteTable");
    expect(resync).toMatchObject({ drifted: 1 });
    const reported = await waitForConditionWith(stack, ns, "RouteTable", "h-public", "Ready", "True", {
      reason: "UnmanagedContents",
      timeoutMs: WAIT,
    });
    expect(condition(reported, "Ready")?.message).toBe(
      `the service shows 1 object in it that no custom resource manages, left as it is: route 10.99.0.0/16 -> ip_string 10.10.1.9 (${byHand})`,
    );
    expect(reported.status?.atProvider?.routeCount).toBe(2);
    await until("UnmanagedContents event", async () =>
      (await eventReasons(stack, ns, "h-public")).includes("UnmanagedContents"),
    );
    // Left in place, by this resync and the next (which looks at the reporting table again).
    expect((await operator.resyncNow()).find((r) => r.kind === "RouteTable")).toMatchObject({ rechecked: 1 });
    expect(simRecords(stack, "routes").some((r) => byHand.endsWith(`/${r.id}`))).toBe(true);

    // A Route adopting it by href: the next resync sees it managed.
    await apply(stack, ns, {
      kind: "Route",
      name: "h-office",
      spec: {
        routeTableRef: { name: "h-public" },
        destinationCidrBlock: "10.99.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.1.9",
      },
      metadata: { annotations: { "cloud.svc.io/href": byHand } },
    });
    await waitReady(stack, ns, "Route", "h-office");
    await operator.resyncNow();
    await waitForConditionWith(stack, ns, "RouteTable", "h-public", "Ready", "True", {
      reason: "Available",
      timeoutMs: WAIT,
    });

    const all = [...manifests, { kind: "Route", name: "h-office" }];
    await Promise.all(all.map((m) => remove(stack, ns, m.kind, m.name)));
    for (const m of all) await waitGone(stack, ns, m.kind, m.name, WAIT);
    console.log(
      JSON.stringify(Object.fromEntries(NETWORK_COLLECTIONS.map((c) => [c, simRecords(stack, c)]))),
    );
    console.log(
      stack.logs
        .filter((l) => l.includes("main") || l.includes("networks"))
        .slice(-40)
        .join("\n"),
    );
    for (const c of NETWORK_COLLECTIONS) expect(simRecords(stack, c), c).toEqual([]);
  });
});
