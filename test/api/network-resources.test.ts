import { describe, expect, it } from "vitest";
import { linkHref, selfHref } from "../../src/api/schemas.ts";
import { rejection, startResourceSuite, testApi } from "./helpers.ts";

const { h, api } = await startResourceSuite();

const CLOUD = "/api/clouds/1";

describe("networks, subnets, gateways and routes", () => {
  it("builds and tears down a network in dependency order", async () => {
    const network = await api.networks.create({
      cloud_href: CLOUD,
      cidr_block: "10.10.0.0/16",
      name: "main",
    });
    const shown = await api.networks.show(network);
    expect(shown).toMatchObject({ name: "main", cidr_block: "10.10.0.0/16", is_default: false });
    const routeTable = linkHref(shown, "default_route_table");
    expect(routeTable).toBeDefined();
    expect((await api.networks.index({ filter: { cloud_href: CLOUD, name: "main" } })).map(selfHref)).toEqual(
      [network],
    );
    await api.networks.update(network, { description: "primary" });
    expect((await api.networks.show(network)).description).toBe("primary");

    const subnet = await api.subnets.create(CLOUD, {
      network_href: network,
      cidr_block: "10.10.1.0/24",
      datacenter_href: "/api/clouds/1/datacenters/1",
      name: "main-a",
    });
    expect((await api.subnets.show(subnet)).cidr_block).toBe("10.10.1.0/24");
    expect((await api.subnets.index(CLOUD, { filter: { network_href: network } })).map(selfHref)).toEqual([
      subnet,
    ]);
    await api.subnets.update(subnet, { description: "zone a" });

    const gateway = await api.networkGateways.create({ cloud_href: CLOUD, name: "igw", type: "internet" });
    await api.networkGateways.update(gateway, { network_href: network });
    expect(linkHref(await api.networkGateways.show(gateway), "network")).toBe(network);

    const flat = await api.routes.create({
      route_table_href: routeTable!,
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: "network_gateway",
      next_hop_href: gateway,
    });
    const nested = await api.routes.create(
      {
        route_table_href: routeTable!,
        destination_cidr_block: "192.168.0.0/16",
        next_hop_type: "ip_string",
        next_hop_ip: "10.10.1.5",
      },
      "route_table",
    );
    const inTable = await api.routes.index({ routeTableHref: routeTable! });
    expect(inTable.map((r) => r.destination_cidr_block)).toEqual(
      expect.arrayContaining(["0.0.0.0/0", "192.168.0.0/16"]),
    );
    expect((await api.routes.index({ filter: { next_hop_type: "ip_string" } })).map(selfHref)).toContain(
      nested,
    );
    await api.routes.update(nested, { description: "on-prem" });
    expect((await api.routes.show(nested)).description).toBe("on-prem");

    const blocked = await rejection(api.networks.destroy(network));
    expect(blocked).toMatchObject({ kind: "conflict", status: 422 });

    await api.routes.destroy(flat);
    await api.routes.destroy(nested);
    await api.networkGateways.update(gateway, { network_href: "" });
    await api.networkGateways.destroy(gateway);
    await api.subnets.destroy(subnet);
    await api.networks.destroy(network);
    expect(await rejection(api.networks.show(network))).toMatchObject({ kind: "notFound" });
  });

  it("a route breaking the next-hop rules is invalid, naming the parameter", async () => {
    const network = await api.networks.create({
      cloud_href: CLOUD,
      cidr_block: "10.20.0.0/16",
      name: "rules",
    });
    const routeTable = linkHref(await api.networks.show(network), "default_route_table")!;
    const error = await rejection(
      api.routes.create({
        route_table_href: routeTable,
        destination_cidr_block: "1.2.3.0/24",
        next_hop_type: "ip_string",
      }),
    );
    expect(error).toMatchObject({ kind: "invalid", status: 400 });
    expect(error.message).toContain("next_hop_ip");
  });
});

describe("route tables", () => {
  it("creates, shows with its routes (extended), updates, and is refused destroy while in use", async () => {
    const network = await api.networks.create({ cloud_href: CLOUD, cidr_block: "10.40.0.0/16", name: "rt" });
    const table = await api.routeTables.create({
      cloud_href: CLOUD,
      network_href: network,
      name: "private",
      description: "no internet",
    });
    expect(await api.routeTables.show(table)).toMatchObject({ name: "private", description: "no internet" });
    expect(linkHref(await api.routeTables.show(table), "network")).toBe(network);
    const route = await api.routes.create({
      route_table_href: table,
      destination_cidr_block: "10.50.0.0/16",
      next_hop_type: "ip_string",
      next_hop_ip: "10.40.0.9",
    });
    expect((await api.routeTables.show(table)).routes).toBeUndefined();
    const extended = await api.routeTables.show(table, { view: "extended" });
    expect(extended.routes?.map(selfHref)).toEqual([route]);
    const listed = await api.routeTables.index({ view: "extended", filter: { network_href: network } });
    expect(listed.map(selfHref)).toContain(table);
    await api.routeTables.update(table, { name: "private-2", description: "" });
    expect(await api.routeTables.show(table)).toMatchObject({ name: "private-2", description: "" });
    const refused = await rejection(api.routeTables.destroy(table));
    expect(refused).toMatchObject({ kind: "conflict", status: 422 });
    expect(refused.message).toContain("it still holds routes");
    await api.routes.destroy(route);
    await api.routeTables.destroy(table);
    expect(await rejection(api.routeTables.show(table))).toMatchObject({ kind: "notFound" });
    await api.networks.destroy(network);
  });
});

describe("a create answered without Location", () => {
  it("finds the new object with a filtered index and says so in a debug log", async () => {
    const noLocation = testApi(h, {
      editResponseHeaders: (status, headers) => {
        if (status === 201) delete headers.location;
      },
    });
    const network = await noLocation.api.networks.create({
      cloud_href: CLOUD,
      cidr_block: "10.30.0.0/16",
      name: "found",
    });
    expect((await api.networks.show(network)).name).toBe("found");
    const gateway = await noLocation.api.networkGateways.create({
      cloud_href: CLOUD,
      name: "found-gw",
      type: "vpn",
    });
    expect((await api.networkGateways.show(gateway)).name).toBe("found-gw");
    const debug = noLocation.logs.filter((l) => l.includes("create answered without Location"));
    expect(debug).toHaveLength(2);
    expect(JSON.parse(debug[0]!)).toMatchObject({ level: 20, path: "/api/networks", found: 1 });
    await noLocation.close();
  });
});
