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

const IPS = "/api/clouds/1/ip_addresses";

describe("IP addresses", () => {
  it("creates with 201 + Location and an allocated IPv4 address", async () => {
    const res = await h.admin.post(IPS, {
      form: { ip_address: { name: "public-1", deployment_href: "/api/deployments/1" } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${IPS}/1`);
    expect(await show(h, `${IPS}/1`)).toEqual({
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      name: "public-1",
      address: "198.18.0.1",
      domain: "ec2_classic",
      links: [
        { rel: "self", href: `${IPS}/1` },
        { rel: "deployment", href: "/api/deployments/1" },
        { rel: "ip_address_bindings", href: `${IPS}/1/ip_address_bindings` },
      ],
    });
    await create(h, IPS, { ip_address: { name: "vpc-ip", domain: "vpc" } });
    expect(await show(h, `${IPS}/2`)).toMatchObject({ address: "198.18.0.2", domain: "vpc" });
    const xml = await h.admin.get(`${IPS}/2.xml`);
    expect(xml.text).toContain("<ip_address><created_at>2026/01/01 00:00:00 +0000</created_at>");
    expect(xml.text).toContain("<address>198.18.0.2</address>");
  });

  it("updates name and deployment; filters by deployment_href and name (partial)", async () => {
    await create(h, IPS, { ip_address: { name: "Front Door" } });
    await create(h, IPS, { ip_address: { name: "back" } });
    expect(
      (
        await h.admin.put(`${IPS}/2`, {
          json: { ip_address: { name: "back-2", deployment_href: "/api/deployments/2" } },
        })
      ).status,
    ).toBe(204);
    const names = async (...f: string[]) => (await index(h, IPS, f)).map((a) => a.name);
    expect(await names("name==door")).toEqual(["Front Door"]);
    expect(await names("deployment_href==/api/deployments/2")).toEqual(["back-2"]);
    expect(
      (await h.admin.put(`${IPS}/2`, { json: { ip_address: { name: "back-2", deployment_href: "" } } }))
        .status,
    ).toBe(204);
    expect(rel(await show(h, `${IPS}/2`), "deployment")).toBeUndefined();
    expect((await h.admin.get(IPS, { query: { filter: ["address==198.18.0.1"] } })).status).toBe(400);
  });

  it("destroys, but not while bound", async () => {
    await create(h, IPS, { ip_address: { name: "a" } });
    await create(h, `${IPS}/1/ip_address_bindings`, {
      ip_address_binding: { instance_href: "/api/clouds/1/instances/1" },
    });
    await expectRefused(
      h,
      () => h.admin.delete(`${IPS}/1`),
      422,
      "IP address 1 is still bound (ip address bindings 1)",
    );
    expect((await h.admin.delete("/api/clouds/1/ip_address_bindings/1")).status).toBe(204);
    expect((await h.admin.delete(`${IPS}/1`)).status).toBe(204);
    await expectRefused(h, () => h.admin.get(`${IPS}/1`), 422, "Couldn't find IpAddress with ID=1");
  });

  it("roles: observer reads, actor writes", async () => {
    await expectRefused(h, () => h.user2.get(IPS), 403, "observer");
    await expectRefused(h, () => h.user2.post(IPS, { json: { ip_address: { name: "x" } } }), 403, "actor");
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "ip_address is required" },
    {
      reason: "no name",
      body: { ip_address: { domain: "vpc" } },
      status: 400,
      message: "ip_address[name] is required",
    },
    {
      reason: "blank name",
      body: { ip_address: { name: "" } },
      status: 400,
      message: "ip_address[name] must not be blank",
    },
    {
      reason: "bad domain",
      body: { ip_address: { name: "a", domain: "classic" } },
      status: 400,
      message: "ip_address[domain] must be one of ec2_classic, vpc",
    },
    {
      reason: "unknown deployment",
      body: { ip_address: { name: "a", deployment_href: "/api/deployments/3" } },
      status: 422,
      message: "Couldn't find Deployment with ID=3",
    },
    {
      reason: "unknown network",
      body: { ip_address: { name: "a", network_href: "/api/networks/3" } },
      status: 422,
      message: "Couldn't find Network with ID=3",
    },
    {
      reason: "unknown member",
      body: { ip_address: { name: "a", address: "1.2.3.4" } },
      status: 400,
      message: "ip_address[address] is not allowed",
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", IPS, row);
  });

  it("domain exists only on the public-cloud kind; unknown clouds are 422", async () => {
    await refuse(h, "POST", "/api/clouds/2/ip_addresses", {
      reason: "domain",
      body: { ip_address: { name: "a", domain: "vpc" } },
      status: 400,
      message: "ip_address[domain] is not allowed on cloud 2",
    });
    expect(await create(h, "/api/clouds/2/ip_addresses", { ip_address: { name: "lab" } })).toBe(
      "/api/clouds/2/ip_addresses/1",
    );
    expect((await show(h, "/api/clouds/2/ip_addresses/1")).domain).toBeNull();
    await refuse(h, "POST", "/api/clouds/4/ip_addresses", {
      reason: "cloud",
      body: { ip_address: { name: "a" } },
      status: 422,
      message: "Couldn't find Cloud with ID=4",
    });
  });

  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, IPS, { ip_address: { name: "a" } });
    });
    const updateCases: BadInput[] = [
      {
        reason: "no name",
        body: { ip_address: { deployment_href: "/api/deployments/1" } },
        status: 400,
        message: "ip_address[name] is required",
      },
      {
        reason: "domain is create-only",
        body: { ip_address: { name: "a", domain: "vpc" } },
        status: 400,
        message: "ip_address[domain] is not allowed",
      },
      {
        reason: "unknown deployment",
        body: { ip_address: { name: "a", deployment_href: "/api/deployments/7" } },
        status: 422,
        message: "Couldn't find Deployment with ID=7",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", `${IPS}/1`, row);
    });
    it("refuses ids of another cloud", async () => {
      await expectRefused(
        h,
        () => h.admin.get("/api/clouds/2/ip_addresses/1"),
        422,
        "Couldn't find IpAddress with ID=1",
      );
    });
  });
});

describe("an open-source stack cloud with networks (custom seed)", () => {
  it("requires ip_address[network_href] there, and volumes need no datacenter", async () => {
    const seed = defaultSeed(resources);
    seed.clouds = [
      ...(seed.clouds ?? []),
      {
        id: "3",
        name: "OpenStack Neutron",
        display_name: "Neutron",
        description: "open-source stack with networks",
        cloud_type: "open_stack_v3",
        capabilities: {
          supports_networks: true,
          supports_route_tables: true,
          supports_volume_attachments: true,
          supports_volume_snapshots: true,
        },
      } as never,
    ];
    const os = await startSimulator({ seed: validateSeed(seed, resources) });
    try {
      await create(os, "/api/networks", {
        network: { cloud_href: "/api/clouds/3", name: "no cidr needed here" },
      });
      await create(os, "/api/networks", {
        network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" },
      });
      await refuse(os, "POST", "/api/clouds/3/ip_addresses", {
        reason: "network required",
        body: { ip_address: { name: "fip" } },
        status: 400,
        message: "ip_address[network_href] is required on cloud 3",
      });
      await refuse(os, "POST", "/api/clouds/3/ip_addresses", {
        reason: "network of another cloud",
        body: { ip_address: { name: "fip", network_href: "/api/networks/2" } },
        status: 422,
        message: "Network 2 is in cloud 1, not cloud 3",
      });
      const href = await create(os, "/api/clouds/3/ip_addresses", {
        ip_address: { name: "fip", network_href: "/api/networks/1" },
      });
      expect(rel(await show(os, href), "network")).toBe("/api/networks/1");
      expect(await create(os, "/api/clouds/3/volumes", { volume: { name: "v" } })).toMatch(
        /^\/api\/clouds\/3\/volumes\/\d+$/,
      );
    } finally {
      await os.close();
    }
  });
});
