import { afterAll, describe, expect, it } from "vitest";
import { resources } from "../../src/simulator/resources/index.ts";
import { validateSeed } from "../../src/simulator/seed.ts";
import { startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const NET_COLLECTIONS = [
  "networks",
  "route_tables",
  "subnets",
  "network_gateways",
  "routes",
  "volumes",
  "recurring_volume_attachments",
  "ip_addresses",
  "ip_address_bindings",
  "resource_groups",
];

describe("a state dump of the network and storage collections", () => {
  it("is a valid seed that a new simulator serves unchanged", async () => {
    await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
    await create(h, "/api/clouds/1/instances/1/subnets", {
      subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
    });
    await create(h, "/api/network_gateways", {
      network_gateway: { cloud_href: "/api/clouds/1", name: "g", type: "vpn" },
    });
    await create(h, "/api/routes", {
      route: {
        route_table_href: "/api/route_tables/1",
        destination_cidr_block: "0.0.0.0/0",
        next_hop_type: "network_gateway",
        next_hop_href: "/api/network_gateways/1",
        cloud_specific_attributes: { instance_tags: ["a"], priority: 3 },
      },
    });
    await create(h, "/api/clouds/1/volumes", {
      volume: { name: "v", datacenter_href: "/api/clouds/1/datacenters/1", encrypted: "true" },
    });
    await create(h, "/api/clouds/1/recurring_volume_attachments", {
      recurring_volume_attachment: {
        device: "/dev/xvdc",
        runnable_href: "/api/servers/1",
        storage_href: "/api/clouds/1/volumes/2",
        settings: { k: "v" },
      },
    });
    await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "ip" } });
    await create(h, "/api/clouds/1/ip_address_bindings", {
      ip_address_binding: { instance_href: "/api/clouds/1/instances/3", public_port: "80", protocol: "TCP" },
    });
    await create(h, "/api/resource_groups", { resource_group: { cloud_href: "/api/clouds/1", name: "rg" } });

    const state = await h.state();
    for (const name of NET_COLLECTIONS) expect(state[name]?.length, name).toBeGreaterThan(0);
    const seed = validateSeed(state, resources, "state dump");
    for (const name of NET_COLLECTIONS) expect(seed[name], name).toEqual(state[name]);

    // The HTTP dump redacts the users' credentials; the copy is seeded from the store itself (as
    // `dev` persists it) so that its users can log in.
    const copy = await startSimulator({ seed: validateSeed(h.sim.store.snapshot(), resources, "store") });
    try {
      for (const path of [
        "/api/networks/1",
        "/api/clouds/1/subnets/1",
        "/api/route_tables/1/routes/1",
        "/api/clouds/1/volumes/2",
        "/api/clouds/1/recurring_volume_attachments/1",
        "/api/clouds/1/ip_address_bindings/1",
        "/api/resource_groups/1",
      ]) {
        const [a, b] = await Promise.all([h.admin.get(path), copy.admin.get(path)]);
        expect(b.status, path).toBe(200);
        expect(b.text, path).toBe(a.text);
      }
    } finally {
      await copy.close();
    }
  });
});
