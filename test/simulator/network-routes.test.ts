import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { RouteTableRecord } from "../../src/simulator/net/records.ts";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, type Rep, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const GW_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "0.0.0.0/0",
  next_hop_type: "network_gateway",
  next_hop_href: "/api/network_gateways/1",
};
const IP_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "10.8.0.0/16",
  next_hop_type: "ip_string",
  next_hop_ip: "10.0.0.5",
};
const URL_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "172.16.0.0/12",
  next_hop_type: "url",
  next_hop_url: "https://hop.example.com/x",
};

beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.1.0.0/16" } });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
  });
});

describe("routes", () => {
  it("creates on the nested path (form, bracketed instance_tags) with 201 and the nested Location", async () => {
    const res = await h.admin.post("/api/route_tables/1/routes", {
      form: {
        route: {
          ...GW_ROUTE,
          description: "default",
          cloud_specific_attributes: { instance_tags: ["web", "db"], priority: "100" },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe("/api/route_tables/1/routes/1");
    const route = await show(h, "/api/route_tables/1/routes/1");
    expect(route).toEqual({
      description: "default",
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: "network_gateway",
      next_hop_ip: null,
      next_hop_url: null,
      state: "available",
      resource_uid: "route-00000001",
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      links: [
        { rel: "self", href: "/api/route_tables/1/routes/1" },
        { rel: "route_table", href: "/api/route_tables/1" },
        { rel: "next_hop", href: "/api/network_gateways/1" },
        { rel: "cloud", href: "/api/clouds/1" },
      ],
      cloud_specific_attributes: { instance_tags: ["web", "db"], priority: 100 },
    });
    expect(await show(h, "/api/routes/1")).toEqual(route);
    const xml = await h.admin.get("/api/routes/1", { headers: { accept: "application/xml" } });
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.route+xml;charset=utf-8");
    expect(xml.text).toContain(
      "<cloud_specific_attributes><instance_tags><instance_tag>web</instance_tag><instance_tag>db</instance_tag></instance_tags><priority>100</priority></cloud_specific_attributes>",
    );
  });

  it("creates on the flat path for ip_string, url and instance hops (global route: attributes null)", async () => {
    expect(await create(h, "/api/routes", { route: IP_ROUTE })).toBe("/api/route_tables/1/routes/1");
    await create(h, "/api/routes", { route: URL_ROUTE });
    await create(h, "/api/routes", {
      route: {
        ...IP_ROUTE,
        next_hop_type: "instance",
        next_hop_ip: undefined,
        next_hop_href: "/api/clouds/1/instances/1",
      },
    });
    await create(h, "/api/routes", {
      route: {
        ...IP_ROUTE,
        next_hop_type: "network_interface",
        next_hop_ip: undefined,
        next_hop_href: "/api/clouds/1/network_interfaces/eni-1",
      },
    });
    const [ip, url, instance, nic] = await index(h, "/api/routes");
    expect(ip).toMatchObject({
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.5",
      cloud_specific_attributes: null,
    });
    expect(rel(ip!, "next_hop")).toBeUndefined();
    expect(url).toMatchObject({ next_hop_type: "url", next_hop_url: "https://hop.example.com/x" });
    expect(rel(instance!, "next_hop")).toBe("/api/clouds/1/instances/1");
    expect(rel(nic!, "next_hop")).toBe("/api/clouds/1/network_interfaces/eni-1");
    const xml = await h.admin.get("/api/routes/1.xml");
    expect(xml.text).toContain(
      "<route><description/><destination_cidr_block>10.8.0.0/16</destination_cidr_block>",
    );
    expect(xml.text).toContain("<cloud_specific_attributes/>");
  });

  it("scopes the nested index and show to their route table", async () => {
    await create(h, "/api/routes", { route: IP_ROUTE });
    await create(h, "/api/routes", { route: { ...IP_ROUTE, route_table_href: "/api/route_tables/2" } });
    expect((await index(h, "/api/route_tables/2/routes")).map((r) => rel(r, "self"))).toEqual([
      "/api/route_tables/2/routes/2",
    ]);
    expect((await index(h, "/api/routes")).length).toBe(2);
    await expectRefused(
      h,
      () => h.admin.get("/api/route_tables/2/routes/1"),
      422,
      "Couldn't find Route with ID=1",
    );
    await expectRefused(
      h,
      () => h.admin.get("/api/route_tables/9/routes"),
      422,
      "Couldn't find RouteTable with ID=9",
    );
    await expectRefused(
      h,
      () => h.admin.delete("/api/route_tables/2/routes/1"),
      422,
      "Couldn't find Route with ID=1",
    );
  });

  it("filters exactly or partially as the spec lists", async () => {
    await create(h, "/api/routes", { route: { ...GW_ROUTE, description: "Internet egress" } });
    await create(h, "/api/routes", { route: IP_ROUTE });
    await create(h, "/api/routes", { route: { ...URL_ROUTE, route_table_href: "/api/route_tables/2" } });
    const ids = async (...f: string[]) =>
      (await index(h, "/api/routes", f)).map((r) => rel(r, "self")!.split("/").pop());
    expect(await ids("description==EGRESS")).toEqual(["1"]);
    expect(await ids("next_hop_ip==10.0.0")).toEqual(["2"]);
    expect(await ids("next_hop_url==hop.example")).toEqual(["3"]);
    expect(await ids("next_hop_href==/api/network_gateways/1")).toEqual(["1"]);
    expect(await ids("next_hop_href==/api/network_gateways")).toEqual([]);
    expect(await ids("next_hop_type==ip_string")).toEqual(["2"]);
    expect(await ids("route_table_href==/api/route_tables/2")).toEqual(["3"]);
    expect(await ids("network_href==/api/networks/1")).toEqual(["1", "2"]);
    expect(await ids("cloud_href==/api/clouds/1", "state==available", "next_hop_type<>url")).toEqual([
      "1",
      "2",
    ]);
    expect(
      (await h.admin.get("/api/routes", { query: { filter: ["destination_cidr_block==0.0.0.0/0"] } })).status,
    ).toBe(400);
  });

  it("updates: type change drops the old hop, description blank, 204 on both path forms", async () => {
    await create(h, "/api/routes", { route: GW_ROUTE });
    let res = await h.admin.put("/api/routes/1", {
      json: { route: { next_hop_type: "ip_string", next_hop_ip: "10.0.0.9", description: "" } },
    });
    expect(res.status, res.text).toBe(204);
    let route = await show<Rep>(h, "/api/routes/1");
    expect(route).toMatchObject({
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.9",
      description: "",
    });
    expect(rel(route, "next_hop")).toBeUndefined();
    res = await h.admin.put("/api/route_tables/1/routes/1", {
      form: { route: { next_hop_ip: "10.0.0.10", destination_cidr_block: "10.7.0.0/16" } },
    });
    expect(res.status).toBe(204);
    route = await show<Rep>(h, "/api/routes/1");
    expect(route).toMatchObject({ next_hop_ip: "10.0.0.10", destination_cidr_block: "10.7.0.0/16" });
    res = await h.admin.put("/api/routes/1", {
      json: { route: { next_hop_type: "instance", next_hop_href: "/api/clouds/1/instances/2" } },
    });
    expect(res.status).toBe(204);
    route = await show<Rep>(h, "/api/routes/1");
    expect(route).toMatchObject({ next_hop_type: "instance", next_hop_ip: null });
    expect(rel(route, "next_hop")).toBe("/api/clouds/1/instances/2");
  });

  it("destroys on both path forms and needs security_manager", async () => {
    await create(h, "/api/routes", { route: IP_ROUTE });
    await create(h, "/api/routes", { route: IP_ROUTE });
    await expectRefused(h, () => h.user2.delete("/api/routes/1"), 403, "security_manager");
    expect((await h.admin.delete("/api/routes/1")).status).toBe(204);
    expect((await h.admin.delete("/api/route_tables/1/routes/2")).status).toBe(204);
    expect((await h.state()).routes ?? []).toEqual([]);
  });

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

  it("refuses routes on a cloud without route tables", async () => {
    // A route table of cloud 2 can only come from a seed: networks cannot be created there.
    h.sim.store.collection<RouteTableRecord>("route_tables").insert({
      id: "50",
      cloud_id: "2",
      network_id: "50",
      name: "seeded",
      description: null,
      resource_uid: "rtb-lab",
      is_default: true,
      created_at: 0,
      updated_at: 0,
    });
    await refuse(h, "POST", "/api/routes", {
      reason: "cloud 2",
      body: { route: { ...IP_ROUTE, route_table_href: "/api/route_tables/50" } },
      status: 422,
      message: "Cloud 2 does not support route tables",
    });
  });
});
