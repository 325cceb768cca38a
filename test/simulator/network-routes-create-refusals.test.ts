import { describe, it } from "vitest";
import { type BadInput, refuse } from "./net-helpers.ts";
import { GW_ROUTE, IP_ROUTE, startRouteWorld, URL_ROUTE } from "./network-routes-helpers.ts";

const h = await startRouteWorld();

describe("routes", () => {
  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "route is required" },
    { reason: "empty wrapper", body: { route: {} }, status: 400, message: "route must not be blank" },
    {
      reason: "no destination",
      body: { route: { ...IP_ROUTE, destination_cidr_block: undefined } },
      status: 400,
      message: "route[destination_cidr_block] is required",
    },
    {
      reason: "destination prefix 3 digits",
      body: { route: { ...IP_ROUTE, destination_cidr_block: "10.0.0.0/024" } },
      status: 400,
      message: "route[destination_cidr_block] must be an IPv4 CIDR block",
    },
    {
      reason: "destination prefix over 32",
      body: { route: { ...IP_ROUTE, destination_cidr_block: "10.0.0.0/40" } },
      status: 400,
      message: "route[destination_cidr_block]",
    },
    {
      reason: "destination octet over 255",
      body: { route: { ...IP_ROUTE, destination_cidr_block: "300.0.0.0/8" } },
      status: 400,
      message: "route[destination_cidr_block]",
    },
    {
      reason: "destination IPv6",
      body: { route: { ...IP_ROUTE, destination_cidr_block: "::/0" } },
      status: 400,
      message: "route[destination_cidr_block]",
    },
    {
      reason: "destination blank",
      body: { route: { ...IP_ROUTE, destination_cidr_block: "" } },
      status: 400,
      message: "route[destination_cidr_block] must not be blank",
    },
    {
      reason: "no type",
      body: { route: { ...IP_ROUTE, next_hop_type: undefined } },
      status: 400,
      message: "route[next_hop_type] is required",
    },
    {
      reason: "bad type",
      body: { route: { ...IP_ROUTE, next_hop_type: "gateway" } },
      status: 400,
      message:
        "route[next_hop_type] must be one of instance, network_interface, network_gateway, ip_string, url",
    },
    {
      reason: "no route table",
      body: { route: { ...IP_ROUTE, route_table_href: undefined } },
      status: 400,
      message: "route[route_table_href] is required",
    },
    {
      reason: "blank route table",
      body: { route: { ...IP_ROUTE, route_table_href: "" } },
      status: 400,
      message: "route[route_table_href] must not be blank",
    },
    {
      reason: "malformed route table",
      body: { route: { ...IP_ROUTE, route_table_href: "/api/networks/1" } },
      status: 400,
      message: "route[route_table_href] must be a route table href",
    },
    {
      reason: "unknown route table",
      body: { route: { ...IP_ROUTE, route_table_href: "/api/route_tables/99" } },
      status: 422,
      message: "Couldn't find RouteTable with ID=99",
    },
    {
      reason: "gateway type without href",
      body: { route: { ...GW_ROUTE, next_hop_href: undefined } },
      status: 400,
      message: "route[next_hop_href] is required when next_hop_type is 'network_gateway'",
    },
    {
      reason: "instance type without href",
      body: { route: { ...IP_ROUTE, next_hop_type: "instance", next_hop_ip: undefined } },
      status: 400,
      message: "route[next_hop_href] is required when next_hop_type is 'instance'",
    },
    {
      reason: "interface type without href",
      body: { route: { ...IP_ROUTE, next_hop_type: "network_interface", next_hop_ip: undefined } },
      status: 400,
      message: "route[next_hop_href] is required when next_hop_type is 'network_interface'",
    },
    {
      reason: "ip type without ip",
      body: { route: { ...IP_ROUTE, next_hop_ip: undefined } },
      status: 400,
      message: "route[next_hop_ip] is required when next_hop_type is 'ip_string'",
    },
    {
      reason: "url type without url",
      body: { route: { ...URL_ROUTE, next_hop_url: undefined } },
      status: 400,
      message: "route[next_hop_url] is required when next_hop_type is 'url'",
    },
    {
      reason: "href with ip type",
      body: { route: { ...IP_ROUTE, next_hop_href: "/api/network_gateways/1" } },
      status: 400,
      message: "route[next_hop_href] is not allowed when next_hop_type is 'ip_string'",
    },
    {
      reason: "href with url type",
      body: { route: { ...URL_ROUTE, next_hop_href: "/api/network_gateways/1" } },
      status: 400,
      message: "route[next_hop_href] is not allowed when next_hop_type is 'url'",
    },
    {
      reason: "ip with gateway type",
      body: { route: { ...GW_ROUTE, next_hop_ip: "10.0.0.1" } },
      status: 400,
      message: "route[next_hop_ip] is not allowed when next_hop_type is 'network_gateway'",
    },
    {
      reason: "ip with url type",
      body: { route: { ...URL_ROUTE, next_hop_ip: "10.0.0.1" } },
      status: 400,
      message: "route[next_hop_ip] is not allowed when next_hop_type is 'url'",
    },
    {
      reason: "url with ip type",
      body: { route: { ...IP_ROUTE, next_hop_url: "http://x" } },
      status: 400,
      message: "route[next_hop_url] is not allowed when next_hop_type is 'ip_string'",
    },
    {
      reason: "url with instance type",
      body: { route: { ...GW_ROUTE, next_hop_type: "instance", next_hop_url: "http://x" } },
      status: 400,
      message: "route[next_hop_url] is not allowed when next_hop_type is 'instance'",
    },
    {
      reason: "ip not a dotted quad",
      body: { route: { ...IP_ROUTE, next_hop_ip: "10.0.0" } },
      status: 400,
      message: "route[next_hop_ip] must be an IPv4 dotted quad",
    },
    {
      reason: "ip with a prefix",
      body: { route: { ...IP_ROUTE, next_hop_ip: "10.0.0.1/32" } },
      status: 400,
      message: "route[next_hop_ip] must be an IPv4 dotted quad",
    },
    {
      reason: "unknown gateway",
      body: { route: { ...GW_ROUTE, next_hop_href: "/api/network_gateways/7" } },
      status: 422,
      message: "Couldn't find NetworkGateway with ID=7",
    },
    {
      reason: "gateway type with an instance href",
      body: { route: { ...GW_ROUTE, next_hop_href: "/api/clouds/1/instances/1" } },
      status: 400,
      message: "route[next_hop_href] must be a network gateway href",
    },
    {
      reason: "unknown instance",
      body: {
        route: { ...GW_ROUTE, next_hop_type: "instance", next_hop_href: "/api/clouds/1/instances/70" },
      },
      status: 422,
      message: "Couldn't find Instance with ID=70",
    },
    {
      reason: "instance of another cloud",
      body: { route: { ...GW_ROUTE, next_hop_type: "instance", next_hop_href: "/api/clouds/2/instances/7" } },
      status: 422,
      message: "Instance 7 is in cloud 2",
    },
    {
      reason: "malformed interface href",
      body: { route: { ...GW_ROUTE, next_hop_type: "network_interface", next_hop_href: "eni-1" } },
      status: 400,
      message: "route[next_hop_href] must be a network interface href",
    },
    {
      reason: "priority not an integer",
      body: { route: { ...IP_ROUTE, cloud_specific_attributes: { priority: "high" } } },
      status: 400,
      message: "route[cloud_specific_attributes][priority] must be an Integer",
    },
    {
      reason: "instance_tags not an array",
      body: { route: { ...IP_ROUTE, cloud_specific_attributes: { instance_tags: "web" } } },
      status: 400,
      message: "route[cloud_specific_attributes][instance_tags] must be an Array",
    },
    {
      reason: "instance_tags empty",
      body: { route: { ...IP_ROUTE, cloud_specific_attributes: { instance_tags: [] } } },
      status: 400,
      message: "route[cloud_specific_attributes][instance_tags] must not be blank",
    },
    {
      reason: "blank attributes hash",
      body: { route: { ...IP_ROUTE, cloud_specific_attributes: {} } },
      status: 400,
      message: "route[cloud_specific_attributes] must not be blank",
    },
    {
      reason: "unknown attribute",
      body: { route: { ...IP_ROUTE, cloud_specific_attributes: { zone: "a" } } },
      status: 400,
      message: "route[cloud_specific_attributes][zone] is not allowed",
    },
    {
      reason: "unknown member",
      body: { route: { ...IP_ROUTE, state: "available" } },
      status: 400,
      message: "route[state] is not allowed",
    },
    {
      reason: "form: bad type",
      body: { route: { ...IP_ROUTE, next_hop_type: "x" } },
      status: 400,
      message: "route[next_hop_type]",
      form: true,
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", "/api/routes", row);
  });

  it("nested create refuses a route_table_href other than the path's", async () => {
    await refuse(h, "POST", "/api/route_tables/2/routes", {
      reason: "mismatch",
      body: { route: IP_ROUTE },
      status: 422,
      message: "route[route_table_href] names route table 1, not route table 2 of the path",
    });
    await refuse(h, "POST", "/api/route_tables/5/routes", {
      reason: "unknown path table",
      body: { route: IP_ROUTE },
      status: 422,
      message: "Couldn't find RouteTable with ID=5",
    });
  });
});
