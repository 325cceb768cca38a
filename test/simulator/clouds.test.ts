import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());

type Rep = Record<string, unknown> & { name: string; links: Array<{ rel: string; href: string }> };
const names = (list: Rep[]) => list.map((r) => r.name);

describe("clouds", () => {
  it("index and show; capabilities only in the extended view", async () => {
    const index = await h.admin.get("/api/clouds");
    expect(index.headers.get("content-type")).toBe(
      "application/vnd.svc.cloud+json;type=collection;charset=utf-8",
    );
    const list = index.json<Rep[]>();
    expect(names(list)).toEqual(["EC2 us-east-1", "OpenStack Lab"]);
    expect(list[0]).not.toHaveProperty("capabilities");
    expect(list[0]!.links.map((l) => l.rel)).toEqual([
      "self",
      "datacenters",
      "instance_types",
      "security_groups",
      "instances",
      "ssh_keys",
      "images",
      "ip_addresses",
      "ip_address_bindings",
      "volume_attachments",
      "recurring_volume_attachments",
      "volume_snapshots",
      "volume_types",
      "volumes",
      "subnets",
    ]);
    const one = (await h.admin.get("/api/clouds/2", { query: { view: "extended" } })).json<Rep>();
    expect(one).toMatchObject({ name: "OpenStack Lab", cloud_type: "open_stack_v3" });
    expect(one.capabilities).toEqual([
      { name: "supports_networks", value: "false" },
      { name: "supports_route_tables", value: "false" },
      { name: "supports_volume_attachments", value: "true" },
      { name: "supports_volume_snapshots", value: "true" },
    ]);
    const first = (await h.admin.get("/api/clouds/1.json", { query: { view: "extended" } })).json<Rep>();
    expect((first.capabilities as Array<{ value: string }>).every((c) => c.value === "true")).toBe(true);
    const xml = await h.admin.get("/api/clouds/1.xml", { query: { view: "extended" } });
    expect(xml.text).toContain(
      "<capabilities><capability><name>supports_networks</name><value>true</value></capability>",
    );
  });

  it("filters cloud_type (exact), description and name (partial)", async () => {
    const get = async (filter: string) =>
      names((await h.admin.get("/api/clouds", { query: { filter: [filter] } })).json<Rep[]>());
    expect(await get("name==openstack")).toEqual(["OpenStack Lab"]);
    expect(await get("description==WITHOUT")).toEqual(["OpenStack Lab"]);
    expect(await get("cloud_type==amazon")).toEqual(["EC2 us-east-1"]);
    expect(await get("cloud_type==amaz")).toEqual([]);
    const bad = await h.admin.get("/api/clouds", { query: { filter: ["display_name==x"] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      "'display_name' is not a filter of this index (allowed: cloud_type, description, name)",
    );
  });

  it("refuses a bad view and an unknown cloud", async () => {
    expect((await h.admin.get("/api/clouds", { query: { view: "inputs" } })).status).toBe(400);
    const missing = await h.admin.get("/api/clouds/0");
    expect([missing.status, missing.text]).toEqual([422, "ResourceNotFound: Couldn't find Cloud with ID=0"]);
  });
});

describe("instance types", () => {
  it("hide deleted types unless with_deleted=true", async () => {
    const live = (await h.admin.get("/api/clouds/1/instance_types")).json<Rep[]>();
    expect(names(live)).toEqual(["m5.large", "m5.xlarge"]);
    const all = (await h.admin.get("/api/clouds/1/instance_types", { query: { with_deleted: "true" } })).json<
      Rep[]
    >();
    expect(names(all)).toEqual(["m5.large", "m5.xlarge", "m1.small"]);
    const explicit = await h.admin.get("/api/clouds/1/instance_types", { query: { with_deleted: "false" } });
    expect(names(explicit.json<Rep[]>())).toEqual(["m5.large", "m5.xlarge"]);
    const bad = await h.admin.get("/api/clouds/1/instance_types", { query: { with_deleted: "yes" } });
    expect([bad.status, bad.text]).toEqual([
      400,
      "ParameterError: with_deleted must be one of true, false (got 'yes')",
    ]);
  });

  it("have the spec's fields with numbers for counts and sizes", async () => {
    const t = (await h.admin.get("/api/clouds/1/instance_types/1")).json<Rep>();
    expect(t).toEqual({
      resource_uid: "m5.large",
      name: "m5.large",
      description: "General purpose, 2 vCPU, 8 GiB",
      memory: "8192",
      cpu_speed: "3.1 GHz",
      cpu_count: 2,
      cpu_architecture: "x86_64",
      local_disks: 0,
      local_disk_size: 0,
      links: [
        { rel: "self", href: "/api/clouds/1/instance_types/1" },
        { rel: "cloud", href: "/api/clouds/1" },
      ],
      actions: [],
    });
    expect((await h.admin.get("/api/clouds/1/instance_types/3")).status).toBe(200);
    const xml = await h.admin.get("/api/clouds/1/instance_types/3.xml");
    expect(xml.text).toContain("<cpu_speed/>");
  });

  it("filter partially on name, description and architecture, exactly on resource_uid", async () => {
    const get = async (filter: string) =>
      names(
        (
          await h.admin.get("/api/clouds/1/instance_types", {
            query: { filter: [filter], with_deleted: "true" },
          })
        ).json<Rep[]>(),
      );
    expect(await get("name==XLARGE")).toEqual(["m5.xlarge"]);
    expect(await get("cpu_architecture==86")).toEqual(["m5.large", "m5.xlarge", "m1.small"]);
    expect(await get("description==previous")).toEqual(["m1.small"]);
    expect(await get("resource_uid==m5")).toEqual([]);
    expect(await get("resource_uid==m5.large")).toEqual(["m5.large"]);
  });

  it("are scoped to their cloud", async () => {
    const other = await h.admin.get("/api/clouds/2/instance_types/1");
    expect([other.status, other.text]).toEqual([
      422,
      "ResourceNotFound: Couldn't find InstanceType with ID=1",
    ]);
    expect((await h.admin.get("/api/clouds/9/instance_types")).text).toBe(
      "ResourceNotFound: Couldn't find Cloud with ID=9",
    );
  });
});

describe("volume types", () => {
  it("index, show (size as a string), filters, scoping", async () => {
    const list = (await h.admin.get("/api/clouds/1/volume_types")).json<Rep[]>();
    expect(names(list)).toEqual(["standard", "io1"]);
    const one = (await h.admin.get("/api/clouds/1/volume_types/2")).json<Rep>();
    expect(one).toMatchObject({
      name: "io1",
      size: "4",
      resource_uid: "io1",
      created_at: "2025/01/15 09:30:00 +0000",
    });
    expect(one.links).toEqual([
      { rel: "self", href: "/api/clouds/1/volume_types/2" },
      { rel: "cloud", href: "/api/clouds/1" },
    ]);
    const filtered = await h.admin.get("/api/clouds/1/volume_types", { query: { filter: ["name==STAN"] } });
    expect(names(filtered.json<Rep[]>())).toEqual(["standard"]);
    expect((await h.admin.get("/api/clouds/2/volume_types/1")).status).toBe(422);
    expect((await h.admin.get("/api/clouds/1/volume_types", { query: { filter: ["size==1"] } })).status).toBe(
      400,
    );
  });

  it("roles: observer or instance", async () => {
    expect((await h.user2.get("/api/clouds/1/volume_types")).status).toBe(403);
    expect((await h.user2.get("/api/clouds/1/instance_types")).status).toBe(403);
    expect((await h.user2.get("/api/clouds")).status).toBe(403);
  });
});
