import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { linkHref } from "../../src/api/schemas.ts";
import {
  condition,
  type Stack,
  simStats,
  startOperator,
  startStack,
  waitForConditionWith,
} from "../operator/harness.ts";
import {
  apply,
  get,
  type Manifest,
  patch,
  readyNamespace,
  remove,
  serviceApi,
  simRecords,
  until,
  waitGone,
  waitReady,
} from "./helpers.ts";

/**
 * What holds a RouteTable back, end to end: custom resources that reference it (the runtime's
 * blockers), holders outside Git (the service's refusal, a clear wait), the network naming it as
 * default; and a change of network, which replaces the table while its routes move over.
 */

let stack: Stack;
let api: ServiceApi;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

const WAIT = 30_000;
const C = "/api/clouds/1";

async function withNetwork(name = "main", cidr = "10.10.0.0/16"): Promise<string> {
  const ns = await readyNamespace(stack);
  await apply(stack, ns, { kind: "Network", name, spec: { cloudHref: C, cidrBlock: cidr } });
  await waitReady(stack, ns, "Network", name);
  return ns;
}

const table = (name: string, network = "main"): Manifest => ({
  kind: "RouteTable",
  name,
  spec: { networkRef: { name: network } },
});
const vpnRoute = (name: string, spec: Record<string, unknown>): Manifest => ({
  kind: "Route",
  name,
  spec: { destinationCidrBlock: "10.20.0.0/16", nextHopType: "ip_string", nextHopIp: "10.10.1.10", ...spec },
});
const deletionBlocked = (ns: string, name: string, message: RegExp) =>
  waitForConditionWith(stack, ns, "RouteTable", name, "Ready", "False", {
    reason: "DeletionBlocked",
    message,
    timeoutMs: WAIT,
  });

describe("deleting a RouteTable", { timeout: 120_000 }, () => {
  it("waits for the Subnets and Routes that reference it, naming them; then goes", async () => {
    const ns = await withNetwork();
    await apply(stack, ns, table("public"));
    await apply(stack, ns, {
      kind: "Subnet",
      name: "web",
      spec: { networkRef: { name: "main" }, cidrBlock: "10.10.1.0/24", routeTableRef: { name: "public" } },
    });
    await apply(stack, ns, vpnRoute("vpn", { routeTableRef: { name: "public" } }));
    for (const [kind, name] of [
      ["Subnet", "web"],
      ["Route", "vpn"],
    ] as const)
      await waitReady(stack, ns, kind, name);
    const href = (await get(stack, ns, "RouteTable", "public"))!.status!.href!;

    await remove(stack, ns, "RouteTable", "public");
    const blocked = await deletionBlocked(ns, "public", /Route vpn, Subnet web/);
    expect(condition(blocked, "Ready")?.message).toMatch(
      /still used by 2 resources not being deleted: Route vpn, Subnet web; delete them or change their references to RouteTable public/,
    );
    expect(condition(blocked, "Stalled")?.status).toBe("False");
    expect(simRecords(stack, "route_tables").some((t) => href.endsWith(`/${t.id}`))).toBe(true);

    // The subnet lets go (back to the network's default), the route goes: then the table.
    await patch(stack, ns, "Subnet", "web", { spec: { routeTableRef: null, routeTableHref: "" } });
    await remove(stack, ns, "Route", "vpn");
    await waitGone(stack, ns, "RouteTable", "public", WAIT);
    expect(simRecords(stack, "route_tables").some((t) => href.endsWith(`/${t.id}`))).toBe(false);
    const subnet = (await get(stack, ns, "Subnet", "web"))!.status!.href!;
    expect(linkHref(await api.subnets.show(subnet), "route_table")).toBeUndefined();
  });

  it("held outside Git (a subnet associated by href, the network's default set by hand): waits, naming them, and goes once they let go", async () => {
    const ns = await withNetwork("n2", "10.11.0.0/16");
    await apply(stack, ns, table("private", "n2"));
    const href = (await waitReady(stack, ns, "RouteTable", "private")).status!.href!;
    const network = (await get(stack, ns, "Network", "n2"))!.status!.href!;
    const original = linkHref(await api.networks.show(network), "default_route_table")!;
    const subnet = await api.subnets.create(C, { network_href: network, cidr_block: "10.11.5.0/24" });
    await api.subnets.update(subnet, { route_table_href: href });
    await api.networks.update(network, { route_table_href: href });

    await remove(stack, ns, "RouteTable", "private");
    const blocked = await deletionBlocked(ns, "private", /refuses to delete/);
    const message = condition(blocked, "Ready")!.message;
    expect(message).toContain(`the service refuses to delete ${href} yet`);
    expect(message).toMatch(/uses it as its default route table; subnets \d+ are associated with it/);
    expect(message).toContain("it goes once they let go of it");
    expect(condition(blocked, "Synced")?.reason).toBe("DeletionBlocked");
    expect(condition(blocked, "Stalled")?.status).toBe("False");

    await api.subnets.update(subnet, { route_table_href: "" });
    await api.networks.update(network, { route_table_href: original });
    await waitGone(stack, ns, "RouteTable", "private", WAIT);
    expect(simRecords(stack, "route_tables").some((t) => href.endsWith(`/${t.id}`))).toBe(false);
    await api.subnets.destroy(subnet);
  });

  it("the network's default, referenced back: the table waits while the network stays, both go when deleted together", async () => {
    const ns = await withNetwork("n3", "10.12.0.0/16");
    await patch(stack, ns, "Network", "n3", { spec: { defaultRouteTableRef: { name: "private" } } });
    await apply(stack, ns, table("private", "n3"));
    const href = (await waitReady(stack, ns, "RouteTable", "private")).status!.href!;
    const network = (await get(stack, ns, "Network", "n3"))!.status!.href!;
    await until(
      "default set",
      async () => linkHref(await api.networks.show(network), "default_route_table") === href,
    );

    await remove(stack, ns, "RouteTable", "private");
    await deletionBlocked(ns, "private", /still used by 1 resource not being deleted: Network n3/);
    await remove(stack, ns, "Network", "n3");
    await waitGone(stack, ns, "RouteTable", "private", WAIT);
    await waitGone(stack, ns, "Network", "n3", WAIT);
    expect(simRecords(stack, "networks").some((n) => network.endsWith(`/${n.id}`))).toBe(false);
    expect(simRecords(stack, "route_tables").some((t) => href.endsWith(`/${t.id}`))).toBe(false);
  });
});

describe("deleting a Network its resources still use", { timeout: 120_000 }, () => {
  it("says to delete those whose reference cannot change, to delete or repoint the others, in a Warning event", async () => {
    const ns = await withNetwork("n4", "10.17.0.0/16");
    await apply(stack, ns, {
      kind: "Subnet",
      name: "web",
      spec: { networkRef: { name: "n4" }, cidrBlock: "10.17.1.0/24" },
    });
    await apply(stack, ns, table("rt", "n4"));
    await waitReady(stack, ns, "Subnet", "web");
    await waitReady(stack, ns, "RouteTable", "rt");

    await remove(stack, ns, "Network", "n4");
    const blocked = await waitForConditionWith(stack, ns, "Network", "n4", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /RouteTable rt, Subnet web/,
      timeoutMs: WAIT,
    });
    // A Subnet's networkRef is immutable (its CRD refuses the change); a RouteTable's is replaced.
    expect(condition(blocked, "Ready")?.message).toBe(
      "still used by 2 resources not being deleted: RouteTable rt, Subnet web; " +
        "delete Subnet web (its spec.networkRef cannot be changed); " +
        "delete RouteTable rt or change its references to Network n4",
    );
    const events = await until("the DeletionBlocked event", async () => {
      const list = await stack.core.listNamespacedEvent({ namespace: ns });
      const found = list.items.filter(
        (e) => e.involvedObject.name === "n4" && e.reason === "DeletionBlocked",
      );
      return found.length > 0 ? found : undefined;
    });
    expect(events.map((e) => e.type)).toEqual(["Warning"]);

    await remove(stack, ns, "Subnet", "web");
    await remove(stack, ns, "RouteTable", "rt");
    await waitGone(stack, ns, "Network", "n4", WAIT);
  });
});

describe("a RouteTable whose network changes", { timeout: 120_000 }, () => {
  it("is replaced: the new table first (Ready, so its routes move), the old one deleted once empty", async () => {
    const ns = await withNetwork("a", "10.13.0.0/16");
    await apply(stack, ns, { kind: "Network", name: "b", spec: { cloudHref: C, cidrBlock: "10.14.0.0/16" } });
    await waitReady(stack, ns, "Network", "b");
    await apply(stack, ns, table("t", "a"));
    await apply(stack, ns, vpnRoute("r", { routeTableRef: { name: "t" } }));
    const route = (await waitReady(stack, ns, "Route", "r")).status!.href!;
    const old = (await get(stack, ns, "RouteTable", "t"))!.status!.href!;

    await patch(stack, ns, "RouteTable", "t", { spec: { networkRef: { name: "b" } } });
    const moved = await until("the route in the new table", async () => {
      const r = await get(stack, ns, "Route", "r");
      const at = r?.status?.atProvider?.routeTableHref;
      return typeof at === "string" && at !== old && condition(r, "Ready")?.status === "True" ? r : undefined;
    });
    const b = (await get(stack, ns, "Network", "b"))!.status!.href!;
    expect(moved.status?.atProvider?.networkHref).toBe(b);
    expect(moved.status?.href).not.toBe(route);
    await waitForConditionWith(stack, ns, "RouteTable", "t", "Ready", "True", {
      message: /^$/,
      timeoutMs: WAIT,
    });
    const t = (await get(stack, ns, "RouteTable", "t"))!;
    expect(t.status?.atProvider?.networkHref).toBe(b);
    expect(t.status?.replaces).toBeUndefined();
    expect(simRecords(stack, "route_tables").some((x) => old.endsWith(`/${x.id}`))).toBe(false);
    expect(simRecords(stack, "routes").some((x) => route.endsWith(`/${x.id}`))).toBe(false);
    // The old table was refused while the route was still in it: the new one was Ready meanwhile.
    const refused = (await simStats(stack)).filter(
      (r) => r.method === "DELETE" && r.route.startsWith("/api/route_tables") && r.status === 422,
    );
    expect(refused.length).toBeGreaterThan(0);

    for (const [kind, name] of [
      ["Route", "r"],
      ["RouteTable", "t"],
      ["Network", "a"],
      ["Network", "b"],
    ] as const)
      await remove(stack, ns, kind, name);
    for (const name of ["a", "b"]) await waitGone(stack, ns, "Network", name, WAIT);
  });

  it("a Network naming a RouteTable of another network as default stops before the update, naming the field", async () => {
    const ns = await withNetwork("c", "10.15.0.0/16");
    await apply(stack, ns, { kind: "Network", name: "d", spec: { cloudHref: C, cidrBlock: "10.16.0.0/16" } });
    await apply(stack, ns, table("of-d", "d"));
    await waitReady(stack, ns, "RouteTable", "of-d");
    await patch(stack, ns, "Network", "c", { spec: { defaultRouteTableRef: { name: "of-d" } } });
    const stalled = await waitForConditionWith(stack, ns, "Network", "c", "Stalled", "True", {
      reason: "InvalidSpec",
      timeoutMs: WAIT,
    });
    expect(condition(stalled, "Stalled")?.message).toMatch(
      /^spec\.defaultRouteTableRef: route table \/api\/route_tables\/\d+ is in network \/api\/networks\/\d+, not in this network/,
    );
    for (const [kind, name] of [
      ["Network", "c"],
      ["RouteTable", "of-d"],
      ["Network", "d"],
    ] as const)
      await remove(stack, ns, kind, name);
    for (const name of ["c", "d"]) await waitGone(stack, ns, "Network", name, WAIT);
  });
});
