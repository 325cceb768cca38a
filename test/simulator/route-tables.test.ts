import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { create, expectRefused, index, type Rep, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.1.0.0/16" } });
});

describe("route tables (read-only, beyond the spec)", () => {
  it("index lists one default table per network and filters by network_href (exact)", async () => {
    expect((await index(h, "/api/route_tables")).length).toBe(2);
    const tables = await index(h, "/api/route_tables", ["network_href==/api/networks/2"]);
    expect(tables.map((t) => rel(t, "self"))).toEqual(["/api/route_tables/2"]);
    expect(await index(h, "/api/route_tables", ["network_href==/api/networks"])).toEqual([]);
    expect((await index(h, "/api/route_tables", ["network_href<>/api/networks/2"])).length).toBe(1);
    const bad = await h.admin.get("/api/route_tables", { query: { filter: ["name==x"] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("allowed: network_href");
  });

  it("show answers the representation, as JSON and XML", async () => {
    const table = await show<Rep>(h, "/api/route_tables/2");
    expect(table).toEqual({
      name: "default",
      description: "Default route table of network 2",
      resource_uid: "rtb-00000002",
      is_default: true,
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      links: [
        { rel: "self", href: "/api/route_tables/2" },
        { rel: "network", href: "/api/networks/2" },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "routes", href: "/api/route_tables/2/routes" },
      ],
    });
    const xml = await h.admin.get("/api/route_tables.xml");
    expect(xml.headers.get("content-type")).toBe(
      "application/vnd.svc.route_table+xml;type=collection;charset=utf-8",
    );
    expect(xml.text).toContain("<route_tables><route_table><name>default</name>");
  });

  it("is read-only and refuses unknown ids", async () => {
    expect((await h.admin.post("/api/route_tables", { json: {} })).status).toBe(405);
    expect((await h.admin.put("/api/route_tables/2", { json: {} })).status).toBe(405);
    expect((await h.admin.delete("/api/route_tables/2")).status).toBe(405);
    await expectRefused(
      h,
      () => h.admin.get("/api/route_tables/9"),
      422,
      "Couldn't find RouteTable with ID=9",
    );
    await expectRefused(h, () => h.user2.get("/api/route_tables"), 403, "observer");
  });

  it("goes away with its network", async () => {
    expect((await h.admin.delete("/api/networks/1")).status).toBe(204);
    expect((await index(h, "/api/route_tables")).map((t) => rel(t, "network"))).toEqual(["/api/networks/2"]);
  });
});
