import { beforeEach, describe, it } from "vitest";
import { type BadInput, create, refuse } from "./net-helpers.ts";
import { GW_ROUTE, IP_ROUTE, startRouteWorld } from "./network-routes-helpers.ts";

const h = await startRouteWorld();

describe("routes", () => {
  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, "/api/routes", { route: GW_ROUTE });
      await create(h, "/api/routes", { route: IP_ROUTE });
    });
    const updateCases: Array<BadInput & { id: string }> = [
      { id: "1", reason: "no wrapper", body: {}, status: 400, message: "route is required" },
      {
        id: "1",
        reason: "next_hop_url is not accepted",
        body: { route: { next_hop_url: "http://x" } },
        status: 400,
        message: "route[next_hop_url] is not allowed",
      },
      {
        id: "1",
        reason: "url type is not accepted",
        body: { route: { next_hop_type: "url" } },
        status: 400,
        message:
          "route[next_hop_type] must be one of instance, network_interface, network_gateway, ip_string",
      },
      {
        id: "1",
        reason: "route table is create-only",
        body: { route: { route_table_href: "/api/route_tables/2" } },
        status: 400,
        message: "route[route_table_href] is not allowed",
      },
      {
        id: "1",
        reason: "attributes are create-only",
        body: { route: { cloud_specific_attributes: { priority: 1 } } },
        status: 400,
        message: "route[cloud_specific_attributes] is not allowed",
      },
      {
        id: "1",
        reason: "ip on a gateway route",
        body: { route: { next_hop_ip: "10.0.0.1" } },
        status: 400,
        message: "route[next_hop_ip] is not allowed when next_hop_type is 'network_gateway'",
      },
      {
        id: "2",
        reason: "href on an ip route",
        body: { route: { next_hop_href: "/api/network_gateways/1" } },
        status: 400,
        message: "route[next_hop_href] is not allowed when next_hop_type is 'ip_string'",
      },
      {
        id: "1",
        reason: "new ip type without ip",
        body: { route: { next_hop_type: "ip_string" } },
        status: 400,
        message: "route[next_hop_ip] is required when next_hop_type is 'ip_string'",
      },
      {
        id: "2",
        reason: "new gateway type without href",
        body: { route: { next_hop_type: "network_gateway" } },
        status: 400,
        message: "route[next_hop_href] is required when next_hop_type is 'network_gateway'",
      },
      {
        id: "1",
        reason: "bad destination",
        body: { route: { destination_cidr_block: "10/8" } },
        status: 400,
        message: "route[destination_cidr_block] must be an IPv4 CIDR block",
      },
      {
        id: "2",
        reason: "bad ip",
        body: { route: { next_hop_ip: "1.2.3.4.5" } },
        status: 400,
        message: "route[next_hop_ip] must be an IPv4 dotted quad",
      },
      {
        id: "1",
        reason: "unknown gateway",
        body: { route: { next_hop_href: "/api/network_gateways/3" } },
        status: 422,
        message: "Couldn't find NetworkGateway with ID=3",
      },
      {
        id: "9",
        reason: "unknown route",
        body: { route: { description: "x" } },
        status: 422,
        message: "Couldn't find Route with ID=9",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", `/api/routes/${row.id}`, row);
    });
  });
});
