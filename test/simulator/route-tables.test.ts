import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, type Rep, refuse, rel, show } from "./net-helpers.ts";

// Route tables as the reference data serves them: index and show (views default and extended),
// create (name, cloud, network), update (name, description), destroy refused while in use.
const h = await startSimulator();
afterAll(() => h.close());
const TABLES = "/api/route_tables";
const TABLE = { cloud_href: "/api/clouds/1", network_href: "/api/networks/1", name: "private" };
beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.1.0.0/16" } });
});

describe("route tables", () => {
  it("index lists one default table per network and filters by network_href (exact)", async () => {
    expect((await index(h, TABLES)).length).toBe(2);
    const tables = await index(h, TABLES, ["network_href==/api/networks/2"]);
    expect(tables.map((t) => rel(t, "self"))).toEqual(["/api/route_tables/2"]);
    expect(await index(h, TABLES, ["network_href==/api/networks"])).toEqual([]);
    expect((await index(h, TABLES, ["network_href<>/api/networks/2"])).length).toBe(1);
    const bad = await h.admin.get(TABLES, { query: { filter: ["name==x"] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("allowed: network_href");
  });

  it("show answers the real shape, as JSON and XML; extended embeds the routes", async () => {
    const table = await show<Rep>(h, "/api/route_tables/2");
    expect(table).toEqual({
      resource_uid: "rtb-00000002",
      name: "default",
      description: "Default route table of network 2",
      links: [
        { rel: "self", href: "/api/route_tables/2" },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "network", href: "/api/networks/2" },
        { rel: "routes", href: "/api/route_tables/2/routes" },
      ],
      actions: [],
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
    });
    const xml = await h.admin.get(`${TABLES}.xml`);
    expect(xml.headers.get("content-type")).toBe(
      "application/vnd.svc.route_table+xml;type=collection;charset=utf-8",
    );
    expect(xml.text).toContain("<route_tables><route_table><resource_uid>rtb-00000001</resource_uid>");
    await create(h, "/api/routes", {
      route: {
        route_table_href: "/api/route_tables/2",
        destination_cidr_block: "10.9.0.0/16",
        next_hop_type: "ip_string",
        next_hop_ip: "10.1.0.9",
      },
    });
    const extended = await show<Rep>(h, "/api/route_tables/2?view=extended");
    expect(extended.routes).toEqual([await show(h, "/api/routes/1")]);
    expect(
      (await index<Rep>(h, `${TABLES}?view=extended`)).map((t) => (t.routes as unknown[]).length),
    ).toEqual([0, 1]);
    const full = await h.admin.get("/api/route_tables/2", { query: { view: "full" } });
    expect([full.status, full.text]).toEqual([
      400,
      "ParameterError: view must be one of default, extended (got 'full')",
    ]);
  });

  it("creates with 201 and a Location; updates name and description", async () => {
    const res = await h.admin.post(TABLES, {
      form: { route_table: { ...TABLE, description: "no internet" } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe("/api/route_tables/3");
    expect(await show(h, "/api/route_tables/3")).toMatchObject({
      name: "private",
      description: "no internet",
      resource_uid: "rtb-00000003",
    });
    const put = await h.admin.put("/api/route_tables/3", {
      json: { route_table: { name: "quiet", description: "" } },
    });
    expect(put.status, put.text).toBe(204);
    expect(await show(h, "/api/route_tables/3")).toMatchObject({ name: "quiet", description: "" });
    // A new table is not the network's default: the network still names its own.
    expect(rel(await show(h, "/api/networks/1"), "default_route_table")).toBe("/api/route_tables/1");
  });

  const badCreates: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "route_table is required" },
    {
      reason: "no name",
      body: { route_table: { ...TABLE, name: undefined } },
      status: 400,
      message: "route_table[name] is required",
    },
    {
      reason: "no network",
      body: { route_table: { ...TABLE, network_href: undefined } },
      status: 400,
      message: "route_table[network_href] is required",
    },
    {
      reason: "no cloud",
      body: { route_table: { ...TABLE, cloud_href: undefined } },
      status: 400,
      message: "route_table[cloud_href] is required",
    },
    {
      reason: "blank name",
      body: { route_table: { ...TABLE, name: "" } },
      status: 400,
      message: "route_table[name] must not be blank",
    },
    {
      reason: "unknown member",
      body: { route_table: { ...TABLE, is_default: "true" } },
      status: 400,
      message: "route_table[is_default] is not allowed",
    },
    {
      reason: "network href of the wrong shape",
      body: { route_table: { ...TABLE, network_href: "/api/networks" } },
      status: 400,
      message: "route_table[network_href] must be a network href",
    },
    {
      reason: "unknown network",
      body: { route_table: { ...TABLE, network_href: "/api/networks/9" } },
      status: 422,
      message: "Couldn't find Network with ID=9",
    },
    {
      reason: "a cloud without route tables",
      body: { route_table: { ...TABLE, cloud_href: "/api/clouds/2" } },
      status: 422,
      message: "Cloud 2 does not support route tables",
    },
  ];
  it.each(badCreates.map((row) => [row.reason, row] as const))("refuses a create: %s", async (_r, row) => {
    await refuse(h, "POST", TABLES, row);
  });

  it("refuses an update that names a create-only member or a blank name, and an unknown id", async () => {
    await refuse(h, "PUT", "/api/route_tables/1", {
      reason: "network",
      body: { route_table: { network_href: "/api/networks/2" } },
      status: 400,
      message: "route_table[network_href] is not allowed",
    });
    await refuse(h, "PUT", "/api/route_tables/1", {
      reason: "blank name",
      body: { route_table: { name: "" } },
      status: 400,
      message: "route_table[name] must not be blank",
    });
    await expectRefused(
      h,
      () => h.admin.get("/api/route_tables/9"),
      422,
      "Couldn't find RouteTable with ID=9",
    );
    await expectRefused(
      h,
      () => h.admin.delete("/api/route_tables/9"),
      422,
      "Couldn't find RouteTable with ID=9",
    );
  });

  it("destroys a table nothing uses; refuses one that a network, a subnet or a route holds", async () => {
    await create(h, TABLES, { route_table: TABLE });
    await create(h, TABLES, { route_table: TABLE });
    expect((await h.admin.delete("/api/route_tables/4")).status).toBe(204);
    await expectRefused(
      h,
      () => h.admin.delete("/api/route_tables/1"),
      422,
      "ActionNotAllowed: Route table 1 is in use: network 1 uses it as its default route table",
    );
    await create(h, "/api/clouds/1/subnets", {
      subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
    });
    await h.admin.put("/api/clouds/1/subnets/1", {
      json: { subnet: { route_table_href: "/api/route_tables/3" } },
    });
    await create(h, "/api/route_tables/3/routes", {
      route: {
        route_table_href: "/api/route_tables/3",
        destination_cidr_block: "10.9.0.0/16",
        next_hop_type: "ip_string",
        next_hop_ip: "10.0.0.9",
      },
    });
    await expectRefused(
      h,
      () => h.admin.delete("/api/route_tables/3"),
      422,
      "ActionNotAllowed: Route table 3 is in use: subnets 1 are associated with it; it still holds routes 1",
    );
  });

  it("needs security_manager to write, observer to read", async () => {
    await expectRefused(h, () => h.user2.get(TABLES), 403, "observer");
    await expectRefused(
      h,
      () => h.user2.post(TABLES, { json: { route_table: TABLE } }),
      403,
      "security_manager",
    );
  });

  it("goes away with its network", async () => {
    await create(h, TABLES, { route_table: TABLE });
    expect((await h.admin.delete("/api/networks/1")).status).toBe(204);
    expect((await index(h, TABLES)).map((t) => rel(t, "network"))).toEqual(["/api/networks/2"]);
  });
});
