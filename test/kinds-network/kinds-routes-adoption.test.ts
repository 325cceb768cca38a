import { describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import { condition, eventReasons } from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  type Manifest,
  patch,
  remove,
  simCalls,
  simRecords,
  until,
  waitGone,
  waitReady,
} from "./helpers.ts";
import { api, NETWORK, operator, stack, useOperatorStack, withNetwork } from "./kinds-harness.ts";

useOperatorStack();

describe("Route", { timeout: 90_000 }, () => {
  it("creates, updates in place, replaces a URL next hop leaving exactly one route, deletes", async () => {
    const { ns, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Route",
      name: "r",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.50.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.5",
      },
    });
    const r = await waitReady(stack, ns, "Route", "r");
    const first = r.status!.href!;
    expect(r.status?.atProvider).toMatchObject({ routeTableHref: table, nextHopIp: "10.10.0.5" });
    await patch(stack, ns, "Route", "r", { spec: { nextHopIp: "10.10.0.6", description: "moved" } });
    await until("updated in place", async () => {
      const o = await api.routes.show(first);
      return o.description === "moved" && (o as { next_hop_ip?: string }).next_hop_ip === "10.10.0.6";
    });
    await waitReady(stack, ns, "Route", "r");

    // ip -> url and then a new url: the update call cannot carry next_hop_url, so the route is replaced.
    await patch(stack, ns, "Route", "r", {
      spec: { nextHopType: "url", nextHopIp: null, nextHopUrl: "https://a.example.com" },
    });
    const second = await until("replaced by a url route", async () => {
      const o = await get(stack, ns, "Route", "r");
      return o?.status?.atProvider?.nextHopUrl === "https://a.example.com" &&
        condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    expect(second).not.toBe(first);
    await patch(stack, ns, "Route", "r", { spec: { nextHopUrl: "https://b.example.com" } });
    const third = await until("replaced again", async () => {
      const o = await get(stack, ns, "Route", "r");
      return o?.status?.atProvider?.nextHopUrl === "https://b.example.com" &&
        condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    const forDestination = simRecords<{ destination_cidr_block: string; next_hop_url: string }>(
      stack,
      "routes",
    ).filter((x) => x.destination_cidr_block === "10.50.0.0/16");
    expect(forDestination).toHaveLength(1);
    expect(forDestination[0]!.next_hop_url).toBe("https://b.example.com");
    expect(third).toMatch(new RegExp(`/routes/${forDestination[0]!.id}$`));
    const o = await get(stack, ns, "Route", "r");
    expect(o?.status?.replaces).toBeUndefined();
    await until("Replaced event", async () => (await eventReasons(stack, ns, "r")).includes("Replaced"));

    await deleteAndWaitGone(stack, ns, "Route", "r");
    expect(simRecords(stack, "routes")).toEqual([]);
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("moving to another route table replaces the route: created in the new table, then deleted from the old", async () => {
    const { ns, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Network",
      name: "other",
      spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.11.0.0/16" },
    });
    const otherTable = (await waitReady(stack, ns, "Network", "other")).status!.atProvider!
      .defaultRouteTableHref as string;
    await apply(stack, ns, {
      kind: "Route",
      name: "mv",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.55.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.5",
      },
    });
    const first = (await waitReady(stack, ns, "Route", "mv")).status!.href!;
    expect(first.startsWith(`${table}/`)).toBe(true);
    await patch(stack, ns, "Route", "mv", { spec: { networkRef: null, routeTableHref: otherTable } });
    const moved = await until("route in the other table", async () => {
      const o = await get(stack, ns, "Route", "mv");
      return o?.status?.href?.startsWith(`${otherTable}/`) && condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    const routes = simRecords<{ destination_cidr_block: string }>(stack, "routes").filter(
      (r) => r.destination_cidr_block === "10.55.0.0/16",
    );
    expect(routes).toHaveLength(1);
    expect(moved.endsWith(`/routes/${routes[0]!.id}`)).toBe(true);
    // Created before deleted: the new route's id is higher and the old one went after it existed.
    expect(Number(routes[0]!.id)).toBeGreaterThan(Number(first.split("/").pop()));
    await deleteAndWaitGone(stack, ns, "Route", "mv");
    await remove(stack, ns, "Network", "other");
    await deleteAndWaitGone(stack, ns, "Network", "main");
    await waitGone(stack, ns, "Network", "other");
  });

  it("puts back a next hop changed through the API, on resync", async () => {
    const { ns } = await withNetwork();
    await apply(stack, ns, {
      kind: "Route",
      name: "r2",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.60.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.7",
      },
    });
    const href = (await waitReady(stack, ns, "Route", "r2")).status!.href!;
    await api.routes.update(href, { next_hop_ip: "10.10.0.99" });
    await operator.resyncNow();
    await until(
      "next hop put back",
      async () => ((await api.routes.show(href)) as { next_hop_ip?: string }).next_hop_ip === "10.10.0.7",
    );
    await remove(stack, ns, "Route", "r2");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});

describe("orphan and adopt", { timeout: 90_000 }, () => {
  it("each kind: Orphan leaves the object; the href annotation adopts it back; Delete then removes it", async () => {
    const { ns } = await withNetwork();
    const children: Manifest[] = [
      { kind: "Subnet", name: "o-sub", spec: { networkRef: { name: "main" }, cidrBlock: "10.10.9.0/24" } },
      {
        kind: "NetworkGateway",
        name: "o-gw",
        spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: "main" } },
      },
      {
        kind: "Route",
        name: "o-route",
        spec: {
          networkRef: { name: "main" },
          destinationCidrBlock: "10.70.0.0/16",
          nextHopType: "ip_string",
          nextHopIp: "10.10.9.9",
        },
      },
    ];
    const collection: Record<string, string> = {
      Subnet: "subnets",
      NetworkGateway: "network_gateways",
      Route: "routes",
    };
    for (const m of children) {
      await apply(stack, ns, { ...m, spec: { ...m.spec, deletionPolicy: "Orphan" } });
      const href = (await waitReady(stack, ns, m.kind, m.name)).status!.href!;
      await deleteAndWaitGone(stack, ns, m.kind, m.name);
      expect(
        simRecords(stack, collection[m.kind]!).some((r) => href.endsWith(`/${r.id}`)),
        `${m.kind} orphaned`,
      ).toBe(true);

      const creates = await simCalls(
        stack,
        "POST",
        m.kind === "Subnet"
          ? "/api/clouds/:cloud_id/subnets"
          : m.kind === "Route"
            ? "/api/routes"
            : "/api/network_gateways",
      );
      await apply(stack, ns, { ...m, metadata: { annotations: { [Annotation.href]: href } } });
      const adopted = await waitReady(stack, ns, m.kind, m.name);
      expect(adopted.status?.href).toBe(href);
      await until(`${m.kind} Adopted event`, async () =>
        (await eventReasons(stack, ns, m.name)).includes("Adopted"),
      );
      expect(
        await simCalls(
          stack,
          "POST",
          m.kind === "Subnet"
            ? "/api/clouds/:cloud_id/subnets"
            : m.kind === "Route"
              ? "/api/routes"
              : "/api/network_gateways",
        ),
      ).toBe(creates);
      await deleteAndWaitGone(stack, ns, m.kind, m.name);
      expect(
        simRecords(stack, collection[m.kind]!).some((r) => href.endsWith(`/${r.id}`)),
        `${m.kind} deleted`,
      ).toBe(false);
    }
    // The network itself: orphan, adopt, delete.
    const netHref = (await get(stack, ns, "Network", "main"))!.status!.href!;
    await patch(stack, ns, "Network", "main", { spec: { deletionPolicy: "Orphan" } });
    await waitReady(stack, ns, "Network", "main");
    await deleteAndWaitGone(stack, ns, "Network", "main");
    expect((await api.networks.show(netHref)).name).toBe("main");
    await apply(stack, ns, { ...NETWORK, metadata: { annotations: { [Annotation.href]: netHref } } });
    expect((await waitReady(stack, ns, "Network", "main")).status?.href).toBe(netHref);
    await deleteAndWaitGone(stack, ns, "Network", "main");
    expect(simRecords(stack, "networks").some((r) => netHref.endsWith(`/${r.id}`))).toBe(false);
  }, 60_000);
});
