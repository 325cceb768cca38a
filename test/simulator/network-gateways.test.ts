import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const GATEWAY = { cloud_href: "/api/clouds/1", name: "igw", type: "internet" };

beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
});

describe("network gateways", () => {
  it("create answers 201 with the object in the body and a Location", async () => {
    const res = await h.admin.post("/api/network_gateways", {
      form: { network_gateway: { ...GATEWAY, description: "" } },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/network_gateways/1");
    expect(res.headers.get("content-type")).toBe("application/vnd.svc.network_gateway+json;charset=utf-8");
    const body = res.json<Record<string, unknown>>();
    expect(body).toEqual({
      name: "igw",
      description: "",
      resource_uid: "igw-00000001",
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      state: "available",
      type: "internet",
      links: [
        { rel: "self", href: "/api/network_gateways/1" },
        { rel: "cloud", href: "/api/clouds/1" },
      ],
      actions: [],
    });
    expect(await show(h, "/api/network_gateways/1")).toEqual(body);
    const xml = await h.admin.post("/api/network_gateways.xml", {
      json: { network_gateway: { ...GATEWAY, type: "vpn" } },
    });
    expect(xml.status).toBe(201);
    expect(xml.text).toContain("<network_gateway><name>igw</name><description/>");
    expect(xml.text).toContain("<type>vpn</type>");
  });

  it("attaches through network_href and detaches with a blank one", async () => {
    await create(h, "/api/network_gateways", { network_gateway: GATEWAY });
    const attach = await h.admin.put("/api/network_gateways/1", {
      form: { network_gateway: { network_href: "/api/networks/1" } },
    });
    expect(attach.status).toBe(204);
    expect(rel(await show(h, "/api/network_gateways/1"), "network")).toBe("/api/networks/1");
    expect((await index(h, "/api/network_gateways", ["network_href==/api/networks/1"])).length).toBe(1);
    await expectRefused(
      h,
      () => h.admin.delete("/api/network_gateways/1"),
      422,
      "ActionNotAllowed: Network gateway 1 is attached to network 1: detach it first",
    );
    const detach = await h.admin.put("/api/network_gateways/1", {
      form: { network_gateway: { network_href: "" } },
    });
    expect(detach.status).toBe(204);
    expect(rel(await show(h, "/api/network_gateways/1"), "network")).toBeUndefined();
    expect((await index(h, "/api/network_gateways", ["network_href==/api/networks/1"])).length).toBe(0);
  });

  it("updates name and a blank description; destroys", async () => {
    await create(h, "/api/network_gateways", { network_gateway: { ...GATEWAY, description: "d" } });
    expect(
      (
        await h.admin.put("/api/network_gateways/1", {
          json: { network_gateway: { name: "n2", description: "" } },
        })
      ).status,
    ).toBe(204);
    expect(await show(h, "/api/network_gateways/1")).toMatchObject({ name: "n2", description: "" });
    expect((await h.admin.delete("/api/network_gateways/1")).status).toBe(204);
    await expectRefused(
      h,
      () => h.admin.get("/api/network_gateways/1"),
      422,
      "Couldn't find NetworkGateway with ID=1",
    );
  });

  it("filters by cloud_href, name (partial) and network_href", async () => {
    await create(h, "/api/network_gateways", { network_gateway: { ...GATEWAY, name: "Edge-IGW" } });
    await create(h, "/api/network_gateways", { network_gateway: { ...GATEWAY, name: "vpn-1", type: "vpn" } });
    const names = async (...f: string[]) => (await index(h, "/api/network_gateways", f)).map((g) => g.name);
    expect(await names("name==igw")).toEqual(["Edge-IGW"]);
    expect(await names("cloud_href==/api/clouds/1")).toEqual(["Edge-IGW", "vpn-1"]);
    expect(await names("cloud_href==/api/clouds/2")).toEqual([]);
    expect((await h.admin.get("/api/network_gateways", { query: { filter: ["type==vpn"] } })).status).toBe(
      400,
    );
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "network_gateway is required" },
    {
      reason: "no cloud",
      body: { network_gateway: { name: "g", type: "vpn" } },
      status: 400,
      message: "network_gateway[cloud_href] is required",
    },
    {
      reason: "no name",
      body: { network_gateway: { cloud_href: "/api/clouds/1", type: "vpn" } },
      status: 400,
      message: "network_gateway[name] is required",
    },
    {
      reason: "no type",
      body: { network_gateway: { cloud_href: "/api/clouds/1", name: "g" } },
      status: 400,
      message: "network_gateway[type] is required",
    },
    {
      reason: "bad type",
      body: { network_gateway: { ...GATEWAY, type: "nat" } },
      status: 400,
      message: "network_gateway[type] must be one of vpn, internet (got 'nat')",
    },
    {
      reason: "blank name",
      body: { network_gateway: { ...GATEWAY, name: "" } },
      status: 400,
      message: "network_gateway[name] must not be blank",
    },
    {
      reason: "network is not a create member",
      body: { network_gateway: { ...GATEWAY, network_href: "/api/networks/1" } },
      status: 400,
      message: "network_gateway[network_href] is not allowed",
    },
    {
      reason: "unknown cloud",
      body: { network_gateway: { ...GATEWAY, cloud_href: "/api/clouds/3" } },
      status: 422,
      message: "Couldn't find Cloud with ID=3",
    },
    {
      reason: "cloud without networks",
      body: { network_gateway: { ...GATEWAY, cloud_href: "/api/clouds/2" } },
      status: 422,
      message: "Cloud 2 does not support network gateways",
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", "/api/network_gateways", row);
  });

  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, "/api/network_gateways", { network_gateway: GATEWAY });
    });
    const updateCases: BadInput[] = [
      {
        reason: "empty wrapper",
        body: { network_gateway: {} },
        status: 400,
        message: "network_gateway must not be blank",
      },
      {
        reason: "type is create-only",
        body: { network_gateway: { type: "vpn" } },
        status: 400,
        message: "network_gateway[type] is not allowed",
      },
      {
        reason: "blank name",
        body: { network_gateway: { name: "" } },
        status: 400,
        message: "network_gateway[name] must not be blank",
      },
      {
        reason: "malformed network",
        body: { network_gateway: { network_href: "/api/networks/x/y" } },
        status: 400,
        message: "network_gateway[network_href] must be a network href",
      },
      {
        reason: "unknown network",
        body: { network_gateway: { network_href: "/api/networks/5" } },
        status: 422,
        message: "Couldn't find Network with ID=5",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", "/api/network_gateways/1", row);
    });
    it("refuses unknown ids and missing roles", async () => {
      await expectRefused(
        h,
        () => h.admin.put("/api/network_gateways/4", { json: { network_gateway: { name: "x" } } }),
        422,
        "Couldn't find NetworkGateway with ID=4",
      );
      await expectRefused(
        h,
        () => h.admin.delete("/api/network_gateways/4"),
        422,
        "Couldn't find NetworkGateway with ID=4",
      );
      await expectRefused(
        h,
        () => h.user2.put("/api/network_gateways/1", { json: { network_gateway: { name: "x" } } }),
        403,
        "security_manager",
      );
    });
  });
});
