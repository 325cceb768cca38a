import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { resources } from "../../src/simulator/resources/index.ts";
import { defaultSeed, validateSeed } from "../../src/simulator/seed.ts";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

const NETWORK = { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16", name: "main" };

describe("networks", () => {
  it("creates with 201, a Location and a default route table linked from the network", async () => {
    const res = await h.admin.post("/api/networks", {
      form: {
        network: {
          ...NETWORK,
          description: "Main",
          instance_tenancy: "dedicated",
          deployment_href: "/api/deployments/1",
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/networks/1");
    const network = await show(h, "/api/networks/1");
    expect(network).toEqual({
      resource_uid: "vpc-00000001",
      name: "main",
      description: "Main",
      instance_tenancy: "dedicated",
      cidr_block: "10.0.0.0/16",
      is_default: false,
      links: [
        { rel: "self", href: "/api/networks/1" },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "default_route_table", href: "/api/route_tables/1" },
        { rel: "deployment", href: "/api/deployments/1" },
      ],
      actions: [],
    });
    const table = await show(h, "/api/route_tables/1");
    expect(table).toMatchObject({ name: "default", resource_uid: "rtb-00000001" });
    expect(rel(table, "network")).toBe("/api/networks/1");
    expect(rel(table, "routes")).toBe("/api/route_tables/1/routes");
  });

  it("renders nulls, booleans and XML", async () => {
    await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.1.0.0/16" } });
    const json = await show(h, "/api/networks/1");
    expect(json.name).toBeNull();
    expect(json.description).toBeNull();
    expect(json.instance_tenancy).toBe("default");
    const xml = await h.admin.get("/api/networks/1.xml");
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.network+xml;charset=utf-8");
    expect(xml.text).toContain("<network><resource_uid>vpc-00000001</resource_uid><name/><description/>");
    expect(xml.text).toContain("<is_default>false</is_default>");
    expect(xml.text).toContain('<link rel="default_route_table" href="/api/route_tables/1"/>');
    const list = await h.admin.get("/api/networks", { headers: { accept: "application/xml" } });
    expect(list.headers.get("content-type")).toBe(
      "application/vnd.svc.network+xml;type=collection;charset=utf-8",
    );
    expect(list.text).toMatch(/<networks><network>.*<\/network><\/networks>/s);
  });

  it("filters exactly or partially as the spec lists", async () => {
    await create(h, "/api/networks", { network: { ...NETWORK, name: "Alpha Net" } });
    await create(h, "/api/networks", {
      network: { ...NETWORK, cidr_block: "10.1.0.0/16", name: "beta", deployment_href: "/api/deployments/1" },
    });
    const names = async (...filters: string[]) =>
      (await index(h, "/api/networks", filters)).map((n) => n.name);
    expect(await names("name==alpha")).toEqual(["Alpha Net"]);
    expect(await names("name<>alpha")).toEqual(["beta"]);
    expect(await names("cidr_block==10.1.0.0/16")).toEqual(["beta"]);
    expect(await names("cidr_block==10.1")).toEqual([]);
    expect(await names("cloud_href==/api/clouds/1")).toEqual(["Alpha Net", "beta"]);
    expect(await names("deployment_href==/api/deployments/1")).toEqual(["beta"]);
    expect(await names("resource_uid==vpc-00000001")).toEqual(["Alpha Net"]);
    expect(await names("resource_uid==vpc-0000000")).toEqual([]);
    const bad = await h.admin.get("/api/networks", { query: { filter: ["state==x"] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("'state' is not a filter of this index");
  });

  it("updates name, description, deployment and the default route table with 204", async () => {
    await create(h, "/api/networks", { network: NETWORK });
    const res = await h.admin.put("/api/networks/1", {
      form: {
        network: {
          name: "renamed",
          description: "",
          deployment_href: "/api/deployments/2",
          route_table_href: "/api/route_tables/1",
        },
      },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const network = await show(h, "/api/networks/1");
    expect(network).toMatchObject({ name: "renamed", description: "" });
    expect(rel(network, "deployment")).toBe("/api/deployments/2");
    expect(rel(network, "default_route_table")).toBe("/api/route_tables/1");
    await h.admin.put("/api/networks/1", { json: { network: { deployment_href: "" } } });
    expect(rel(await show(h, "/api/networks/1"), "deployment")).toBeUndefined();
  });

  it("destroys a network and its default route table", async () => {
    await create(h, "/api/networks", { network: NETWORK });
    const res = await h.admin.delete("/api/networks/1");
    expect(res.status).toBe(204);
    const state = await h.state();
    expect(state.networks ?? []).toEqual([]);
    expect(state.route_tables ?? []).toEqual([]);
    await expectRefused(
      h,
      () => h.admin.get("/api/networks/1"),
      422,
      "ResourceNotFound: Couldn't find Network with ID=1",
    );
  });

  it("refuses to destroy a network with subnets, attached gateways or routes, then allows it once they are gone", async () => {
    await create(h, "/api/networks", { network: NETWORK });
    await create(h, "/api/clouds/1/subnets", {
      subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
    });
    await create(h, "/api/network_gateways", {
      network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
    });
    await h.admin.put("/api/network_gateways/1", {
      json: { network_gateway: { network_href: "/api/networks/1" } },
    });
    await create(h, "/api/routes", {
      route: {
        route_table_href: "/api/route_tables/1",
        destination_cidr_block: "0.0.0.0/0",
        next_hop_type: "network_gateway",
        next_hop_href: "/api/network_gateways/1",
      },
    });
    const res = await expectRefused(
      h,
      () => h.admin.delete("/api/networks/1"),
      422,
      "ActionNotAllowed: Network 1 still has",
    );
    expect(res.text).toContain("subnets 1");
    expect(res.text).toContain("attached network gateways 1");
    expect(res.text).toContain("routes 1");

    expect((await h.admin.delete("/api/route_tables/1/routes/1")).status).toBe(204);
    expect((await h.admin.delete("/api/clouds/1/subnets/1")).status).toBe(204);
    await expectRefused(h, () => h.admin.delete("/api/networks/1"), 422, "attached network gateways 1");
    expect(
      (await h.admin.put("/api/network_gateways/1", { json: { network_gateway: { network_href: "" } } }))
        .status,
    ).toBe(204);
    expect((await h.admin.delete("/api/networks/1")).status).toBe(204);
  });

  it("needs security_manager to write and observer to read", async () => {
    await expectRefused(h, () => h.user2.get("/api/networks"), 403, "observer");
    await expectRefused(
      h,
      () => h.user2.post("/api/networks", { json: { network: NETWORK } }),
      403,
      "security_manager",
    );
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "network is required" },
    { reason: "wrapper not a hash", body: { network: "x" }, status: 400, message: "network must be a Hash" },
    { reason: "empty wrapper", body: { network: {} }, status: 400, message: "network must not be blank" },
    {
      reason: "no cloud",
      body: { network: { name: "n" } },
      status: 400,
      message: "network[cloud_href] is required",
    },
    {
      reason: "blank cloud",
      body: { network: { cloud_href: "" } },
      status: 400,
      message: "network[cloud_href] must not be blank",
    },
    {
      reason: "malformed cloud href",
      body: { network: { cloud_href: "clouds/1" } },
      status: 400,
      message: "network[cloud_href] must be a cloud href",
    },
    {
      reason: "unknown cloud",
      body: { network: { ...NETWORK, cloud_href: "/api/clouds/9" } },
      status: 422,
      message: "ResourceNotFound: Couldn't find Cloud with ID=9",
    },
    {
      reason: "cloud without networks",
      body: { network: { cloud_href: "/api/clouds/2" } },
      status: 422,
      message: "ActionNotAllowed: Cloud 2 does not support networks",
    },
    {
      reason: "cidr missing on the public cloud",
      body: { network: { cloud_href: "/api/clouds/1" } },
      status: 400,
      message: "network[cidr_block] is required",
    },
    {
      reason: "cidr prefix too long",
      body: { network: { ...NETWORK, cidr_block: "10.0.0.0/33" } },
      status: 400,
      message: "network[cidr_block] must be an IPv4 CIDR block",
    },
    {
      reason: "cidr three-digit prefix",
      body: { network: { ...NETWORK, cidr_block: "10.0.0.0/016" } },
      status: 400,
      message: "network[cidr_block]",
    },
    {
      reason: "cidr bad octet",
      body: { network: { ...NETWORK, cidr_block: "10.0.0.256/16" } },
      status: 400,
      message: "network[cidr_block]",
    },
    {
      reason: "cidr without prefix",
      body: { network: { ...NETWORK, cidr_block: "10.0.0.0" } },
      status: 400,
      message: "network[cidr_block]",
    },
    {
      reason: "tenancy value",
      body: { network: { ...NETWORK, instance_tenancy: "shared" } },
      status: 400,
      message: "network[instance_tenancy] must be one of default, dedicated",
    },
    {
      reason: "blank name",
      body: { network: { ...NETWORK, name: "" } },
      status: 400,
      message: "network[name] must not be blank",
    },
    {
      reason: "name not a string",
      body: { network: { ...NETWORK, name: ["a"] } },
      status: 400,
      message: "network[name] must be a String",
    },
    {
      reason: "unknown member",
      body: { network: { ...NETWORK, route_table_href: "/api/route_tables/1" } },
      status: 400,
      message: "network[route_table_href] is not allowed",
    },
    {
      reason: "unknown deployment",
      body: { network: { ...NETWORK, deployment_href: "/api/deployments/99" } },
      status: 422,
      message: "Couldn't find Deployment with ID=99",
    },
    {
      reason: "malformed deployment",
      body: { network: { ...NETWORK, deployment_href: "/api/deployment/1" } },
      status: 400,
      message: "network[deployment_href] must be a deployment href",
    },
    {
      reason: "form: tenancy value",
      body: { network: { ...NETWORK, instance_tenancy: "x" } },
      status: 400,
      message: "network[instance_tenancy]",
      form: true,
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", "/api/networks", row);
  });

  describe("update and destroy refusals", () => {
    beforeEach(async () => {
      await create(h, "/api/networks", { network: NETWORK });
      await create(h, "/api/networks", { network: { ...NETWORK, cidr_block: "10.1.0.0/16" } });
    });
    const updateCases: BadInput[] = [
      { reason: "no wrapper", body: {}, status: 400, message: "network is required" },
      { reason: "empty wrapper", body: { network: {} }, status: 400, message: "network must not be blank" },
      {
        reason: "create-only member",
        body: { network: { cidr_block: "10.2.0.0/16" } },
        status: 400,
        message: "network[cidr_block] is not allowed",
      },
      {
        reason: "cloud is create-only",
        body: { network: { cloud_href: "/api/clouds/1" } },
        status: 400,
        message: "network[cloud_href] is not allowed",
      },
      {
        reason: "blank name",
        body: { network: { name: "" } },
        status: 400,
        message: "network[name] must not be blank",
      },
      {
        reason: "unknown route table",
        body: { network: { route_table_href: "/api/route_tables/77" } },
        status: 422,
        message: "Couldn't find RouteTable with ID=77",
      },
      {
        reason: "route table of another network",
        body: { network: { route_table_href: "/api/route_tables/2" } },
        status: 422,
        message: "Route table 2 belongs to network 2",
      },
      {
        reason: "unknown deployment",
        body: { network: { deployment_href: "/api/deployments/5" } },
        status: 422,
        message: "Couldn't find Deployment with ID=5",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", "/api/networks/1", row);
    });
    it("refuses unknown ids on show, update and destroy", async () => {
      const message = "ResourceNotFound: Couldn't find Network with ID=42";
      await expectRefused(h, () => h.admin.get("/api/networks/42"), 422, message);
      await expectRefused(
        h,
        () => h.admin.put("/api/networks/42", { json: { network: { name: "x" } } }),
        422,
        message,
      );
      await expectRefused(h, () => h.admin.delete("/api/networks/42"), 422, message);
    });
  });
});

describe("query-string parameters and seeded networks", () => {
  it("takes update parameters from a PUT's query string, as official examples send them", async () => {
    await create(h, "/api/networks", { network: NETWORK });
    const res = await h.admin.put("/api/networks/1", { query: { network: { name: "from-query" } } });
    expect(res.status, res.text).toBe(204);
    expect((await show(h, "/api/networks/1")).name).toBe("from-query");
  });

  it("links a seeded network to its seeded default route table", async () => {
    const raw: Record<string, unknown[]> = { ...defaultSeed(resources) };
    raw.networks = [{ id: "7", cloud_id: "1", cidr_block: "10.7.0.0/16" }];
    raw.route_tables = [{ id: "70", cloud_id: "1", network_id: "7" }];
    raw.subnets = [{ id: "1", cloud_id: "1", network_id: "7", cidr_block: "10.7.1.0/24" }];
    const seeded = await startSimulator({ seed: validateSeed(raw, resources) });
    try {
      expect(rel(await show(seeded, "/api/networks/7"), "default_route_table")).toBe("/api/route_tables/70");
      const subnet = await show(seeded, "/api/clouds/1/subnets/1");
      expect(subnet.state).toBe("available");
      expect(rel(subnet, "effective_route_table")).toBe("/api/route_tables/70");
      await expectRefused(
        seeded,
        () => seeded.admin.delete("/api/networks/7"),
        422,
        "Network 7 still has subnets 1",
      );
      expect(await create(seeded, "/api/networks", { network: NETWORK })).toBe("/api/networks/8");
    } finally {
      await seeded.close();
    }
  });
});
