import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const SUBNET = { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" };

beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/networks", {
    network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16", name: "main" },
  });
});

describe("subnets", () => {
  it("creates under the cloud prefix: 201, Location, pending then available", async () => {
    const res = await h.admin.post("/api/clouds/1/subnets", {
      form: {
        subnet: {
          ...SUBNET,
          name: "a",
          description: "zone a",
          datacenter_href: "/api/clouds/1/datacenters/1",
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/clouds/1/subnets/1");
    const subnet = await show(h, "/api/clouds/1/subnets/1");
    expect(subnet).toEqual({
      visibility: "private",
      resource_uid: "subnet-00000001",
      name: "a",
      description: "zone a",
      state: "pending",
      cidr_block: "10.0.1.0/24",
      is_default: false,
      links: [
        { rel: "self", href: "/api/clouds/1/subnets/1" },
        { rel: "datacenter", href: "/api/clouds/1/datacenters/1" },
        { rel: "network", href: "/api/networks/1" },
        { rel: "effective_route_table", href: "/api/route_tables/1" },
      ],
    });
    await h.hook("clock", { advanceSeconds: 1 });
    expect((await show(h, "/api/clouds/1/subnets/1")).state).toBe("available");
  });

  it("works under the instance prefix, scoped to that instance", async () => {
    const location = await create(h, "/api/clouds/1/instances/1/subnets", { subnet: SUBNET });
    expect(location).toBe("/api/clouds/1/subnets/1");
    await create(h, "/api/clouds/1/subnets", { subnet: { ...SUBNET, cidr_block: "10.0.2.0/24" } });
    expect((await index(h, "/api/clouds/1/instances/1/subnets")).map((s) => s.cidr_block)).toEqual([
      "10.0.1.0/24",
    ]);
    expect((await index(h, "/api/clouds/1/instances/5/subnets")).length).toBe(0);
    expect((await index(h, "/api/clouds/1/subnets")).length).toBe(2);
    expect((await show(h, "/api/clouds/1/instances/1/subnets/1.json")).cidr_block).toBe("10.0.1.0/24");
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/instances/1/subnets/2"),
      422,
      "Couldn't find Subnet with ID=2",
    );
    const update = await h.admin.put("/api/clouds/1/instances/1/subnets/1", {
      json: { subnet: { name: "via-instance" } },
    });
    expect(update.status).toBe(204);
    expect((await show(h, "/api/clouds/1/subnets/1")).name).toBe("via-instance");
    expect((await h.admin.delete("/api/clouds/1/instances/1/subnets/1")).status).toBe(204);
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/instances/9/subnets"),
      422,
      "Couldn't find Instance with ID=9",
    );
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/instances/7/subnets"),
      422,
      "Couldn't find Instance with ID=7",
    );
  });

  it("sets and resets the route table (empty string = the network's default)", async () => {
    await create(h, "/api/clouds/1/subnets", { subnet: SUBNET });
    await h.admin.put("/api/clouds/1/subnets/1", {
      form: { subnet: { route_table_href: "/api/route_tables/1" } },
    });
    let subnet = await show(h, "/api/clouds/1/subnets/1");
    expect(rel(subnet, "route_table")).toBe("/api/route_tables/1");
    expect(rel(subnet, "effective_route_table")).toBe("/api/route_tables/1");
    const reset = await h.admin.put("/api/clouds/1/subnets/1", {
      form: { subnet: { route_table_href: "" } },
    });
    expect(reset.status).toBe(204);
    subnet = await show(h, "/api/clouds/1/subnets/1");
    expect(rel(subnet, "route_table")).toBeUndefined();
    expect(rel(subnet, "effective_route_table")).toBe("/api/route_tables/1");
  });

  it("updates cidr, blank name and blank description", async () => {
    await create(h, "/api/clouds/1/subnets", { subnet: { ...SUBNET, name: "a", description: "d" } });
    const res = await h.admin.put("/api/clouds/1/subnets/1", {
      json: { subnet: { cidr_block: "10.0.8.0/22", name: "", description: "" } },
    });
    expect(res.status).toBe(204);
    expect(await show(h, "/api/clouds/1/subnets/1")).toMatchObject({
      cidr_block: "10.0.8.0/22",
      name: "",
      description: "",
    });
  });

  it("filters as the spec lists", async () => {
    await create(h, "/api/clouds/1/subnets", {
      subnet: { ...SUBNET, name: "Front", datacenter_href: "/api/clouds/1/datacenters/1" },
    });
    await create(h, "/api/clouds/1/instances/1/subnets", {
      subnet: { ...SUBNET, cidr_block: "10.0.2.0/24", name: "back" },
    });
    const names = async (...f: string[]) => (await index(h, "/api/clouds/1/subnets", f)).map((s) => s.name);
    expect(await names("name==fro")).toEqual(["Front"]);
    expect(await names("datacenter_href==/api/clouds/1/datacenters/1")).toEqual(["Front"]);
    expect(await names("instance_href==/api/clouds/1/instances/1")).toEqual(["back"]);
    expect(await names("network_href==/api/networks/1")).toEqual(["Front", "back"]);
    expect(await names("resource_uid==subnet-00000002")).toEqual(["back"]);
    expect(await names("visibility==private")).toEqual(["Front", "back"]);
    expect(await names("visibility==priv")).toEqual([]);
    expect(
      (await h.admin.get("/api/clouds/1/subnets", { query: { filter: ["cidr_block==x"] } })).status,
    ).toBe(400);
  });

  it("answers XML", async () => {
    await create(h, "/api/clouds/1/subnets", { subnet: SUBNET });
    const xml = await h.admin.get("/api/clouds/1/subnets/1.xml");
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.subnet+xml;charset=utf-8");
    expect(xml.text).toContain("<subnet><visibility>private</visibility>");
    expect(xml.text).toContain("<name/>");
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "subnet is required" },
    {
      reason: "no cidr",
      body: { subnet: { network_href: "/api/networks/1" } },
      status: 400,
      message: "subnet[cidr_block] is required",
    },
    {
      reason: "no network",
      body: { subnet: { cidr_block: "10.0.1.0/24" } },
      status: 400,
      message: "subnet[network_href] is required",
    },
    {
      reason: "bad cidr",
      body: { subnet: { ...SUBNET, cidr_block: "10.0.1.0/24/1" } },
      status: 400,
      message: "subnet[cidr_block] must be an IPv4 CIDR block",
    },
    {
      reason: "blank cidr",
      body: { subnet: { ...SUBNET, cidr_block: "" } },
      status: 400,
      message: "subnet[cidr_block] must not be blank",
    },
    {
      reason: "malformed network href",
      body: { subnet: { ...SUBNET, network_href: "/api/networks" } },
      status: 400,
      message: "subnet[network_href] must be a network href",
    },
    {
      reason: "unknown network",
      body: { subnet: { ...SUBNET, network_href: "/api/networks/9" } },
      status: 422,
      message: "Couldn't find Network with ID=9",
    },
    {
      reason: "unknown datacenter",
      body: { subnet: { ...SUBNET, datacenter_href: "/api/clouds/1/datacenters/99" } },
      status: 422,
      message: "Couldn't find Datacenter with ID=99",
    },
    {
      reason: "datacenter of another cloud",
      body: { subnet: { ...SUBNET, datacenter_href: "/api/clouds/2/datacenters/3" } },
      status: 422,
      message: "Datacenter 3 is in cloud 2",
    },
    {
      reason: "outside the network's cidr",
      body: { subnet: { ...SUBNET, cidr_block: "10.1.0.0/24" } },
      status: 422,
      message: "is not inside the CIDR block 10.0.0.0/16",
    },
    {
      reason: "larger than the network",
      body: { subnet: { ...SUBNET, cidr_block: "10.0.0.0/8" } },
      status: 422,
      message: "is not inside",
    },
    {
      reason: "unknown member",
      body: { subnet: { ...SUBNET, route_table_href: "/api/route_tables/1" } },
      status: 400,
      message: "subnet[route_table_href] is not allowed",
    },
    {
      reason: "blank name",
      body: { subnet: { ...SUBNET, name: "" } },
      status: 400,
      message: "subnet[name] must not be blank",
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", "/api/clouds/1/subnets", row);
  });

  it("create refuses an overlapping subnet, a network of another cloud and unknown clouds", async () => {
    await create(h, "/api/clouds/1/subnets", { subnet: SUBNET });
    await refuse(h, "POST", "/api/clouds/1/subnets", {
      reason: "overlap",
      body: { subnet: { ...SUBNET, cidr_block: "10.0.1.128/25" } },
      status: 422,
      message: "overlaps subnet 1 (10.0.1.0/24)",
    });
    await refuse(h, "POST", "/api/clouds/2/subnets", {
      reason: "cloud without networks",
      body: { subnet: SUBNET },
      status: 422,
      message: "Cloud 2 does not support networks",
    });
    await refuse(h, "POST", "/api/clouds/9/subnets", {
      reason: "unknown cloud",
      body: { subnet: SUBNET },
      status: 422,
      message: "Couldn't find Cloud with ID=9",
    });
  });

  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, "/api/clouds/1/subnets", { subnet: SUBNET });
      await create(h, "/api/clouds/1/subnets", { subnet: { ...SUBNET, cidr_block: "10.0.2.0/24" } });
      await create(h, "/api/networks", {
        network: { cloud_href: "/api/clouds/1", cidr_block: "10.9.0.0/16" },
      });
    });
    const updateCases: BadInput[] = [
      { reason: "empty wrapper", body: { subnet: {} }, status: 400, message: "subnet must not be blank" },
      {
        reason: "network is create-only",
        body: { subnet: { network_href: "/api/networks/1" } },
        status: 400,
        message: "subnet[network_href] is not allowed",
      },
      {
        reason: "bad cidr",
        body: { subnet: { cidr_block: "10.0.1/24" } },
        status: 400,
        message: "subnet[cidr_block] must be an IPv4 CIDR block",
      },
      {
        reason: "cidr outside the network",
        body: { subnet: { cidr_block: "10.9.0.0/24" } },
        status: 422,
        message: "is not inside",
      },
      {
        reason: "cidr overlapping a sibling",
        body: { subnet: { cidr_block: "10.0.2.0/23" } },
        status: 422,
        message: "overlaps subnet 2",
      },
      {
        reason: "malformed route table",
        body: { subnet: { route_table_href: "route_tables/1" } },
        status: 400,
        message: "subnet[route_table_href] must be a route table href",
      },
      {
        reason: "unknown route table",
        body: { subnet: { route_table_href: "/api/route_tables/8" } },
        status: 422,
        message: "Couldn't find RouteTable with ID=8",
      },
      {
        reason: "route table of another network",
        body: { subnet: { route_table_href: "/api/route_tables/2" } },
        status: 422,
        message: "Route table 2 belongs to network 2",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", "/api/clouds/1/subnets/1", row);
    });
    it("refuses unknown ids and ids of another cloud", async () => {
      await expectRefused(
        h,
        () => h.admin.get("/api/clouds/1/subnets/9"),
        422,
        "Couldn't find Subnet with ID=9",
      );
      await expectRefused(
        h,
        () => h.admin.get("/api/clouds/2/subnets/1"),
        422,
        "Couldn't find Subnet with ID=1",
      );
      await expectRefused(
        h,
        () => h.admin.delete("/api/clouds/1/subnets/9"),
        422,
        "Couldn't find Subnet with ID=9",
      );
      await expectRefused(h, () => h.user2.delete("/api/clouds/1/subnets/1"), 403, "security_manager");
    });
  });
});
