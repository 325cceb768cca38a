import { describe, expect, it } from "vitest";
import type { RouteTableRecord } from "../../src/simulator/net/records.ts";
import { create, expectRefused, index, type Rep, refuse, rel, show } from "./net-helpers.ts";
import { GW_ROUTE, IP_ROUTE, startRouteWorld, URL_ROUTE } from "./network-routes-helpers.ts";

const h = await startRouteWorld();

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
