import { beforeEach } from "vitest";
import { startFileSimulator } from "./file-simulator.ts";
import type { Harness } from "./harness.ts";
import { create } from "./net-helpers.ts";

// The world of the network-routes-*.test.ts files: networks 1 and 2 (route tables 1 and 2)
// and gateway 1, restored before each test.

export const GW_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "0.0.0.0/0",
  next_hop_type: "network_gateway",
  next_hop_href: "/api/network_gateways/1",
};
export const IP_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "10.8.0.0/16",
  next_hop_type: "ip_string",
  next_hop_ip: "10.0.0.5",
};
export const URL_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "172.16.0.0/12",
  next_hop_type: "url",
  next_hop_url: "https://hop.example.com/x",
};

/** Starts this file's simulator (stopped after it) and restores the world before each test. */
export async function startRouteWorld(): Promise<Harness> {
  const h = await startFileSimulator({ resetEach: true });
  beforeEach(async () => {
    await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
    await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.1.0.0/16" } });
    await create(h, "/api/network_gateways", {
      network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
    });
  });
  return h;
}
