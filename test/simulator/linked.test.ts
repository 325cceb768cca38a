import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());

type Rep = Record<string, unknown> & { name: string; links: Array<{ rel: string; href: string }> };
const rel = (rep: Rep, name: string) => rep.links.find((l) => l.rel === name)?.href;

const indexes: Array<[string, string, string]> = [
  ["/api/servers", "server", "app-1"],
  ["/api/server_arrays", "server_array", "workers"],
  ["/api/server_templates", "server_template", "Base Linux"],
  ["/api/users", "user", ""],
  ["/api/stored_scripts", "stored_script", "deploy.sh"],
  ["/api/clouds/1/datacenters", "datacenter", "us-east-1a"],
  ["/api/clouds/1/instances", "instance", "app-1"],
  ["/api/clouds/1/images", "image", "ubuntu-24.04"],
  ["/api/clouds/1/volume_snapshots", "volume_snapshot", "base-data-snap"],
];

describe("read-only linked resources", () => {
  it.each(indexes)("%s: index, show by self href, XML, name filter", async (path, type, first) => {
    const index = await h.admin.get(path);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe(
      `application/vnd.svc.${type}+json;type=collection;charset=utf-8`,
    );
    const list = index.json<Rep[]>();
    expect(list.length).toBeGreaterThan(0);
    if (first) expect(list[0]!.name).toBe(first);
    const self = rel(list[0]!, "self")!;
    expect(self.startsWith(`${path}/`)).toBe(true);
    const show = await h.admin.get(self);
    expect(show.status).toBe(200);
    expect(show.json()).toEqual(list[0]);
    expect((await h.admin.get(`${self}.xml`)).text).toContain(`<${type}>`);
    const unknownFilter = await h.admin.get(path, { query: { filter: ["bogus==1"] } });
    expect(unknownFilter.status).toBe(400);
    const missing = await h.admin.get(`${path}/999`);
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(/^ResourceNotFound: Couldn't find \w+ with ID=999$/);
    expect(path === "/api/users" || (await h.admin.request("POST", path)).status === 405).toBe(true);
  });

  it("users show name and email, never the password", async () => {
    const users = (await h.admin.get("/api/users")).json<Rep[]>();
    expect(users.map((u) => u.email)).toEqual(["admin@example.com", "user2@example.com"]);
    expect(JSON.stringify(users)).not.toContain("password");
    expect(JSON.stringify(users)).not.toContain("dev-refresh-token");
  });

  it("servers link their current and next instances; arrays their current instances", async () => {
    const server = (await h.admin.get("/api/servers/1")).json<Rep>();
    expect(rel(server, "current_instance")).toBe("/api/clouds/1/instances/1");
    expect(rel(server, "next_instance")).toBe("/api/clouds/1/instances/3");
    expect(rel(server, "deployment")).toBe("/api/deployments/1");
    const stopped = (await h.admin.get("/api/servers/2")).json<Rep>();
    expect(rel(stopped, "current_instance")).toBeUndefined();
    const current = (
      await h.admin.get(
        (await h.admin.get("/api/servers/1")).json<Rep>().links.find((l) => l.rel === "current_instance")!
          .href,
      )
    ).json<Rep>();
    expect(current.state).toBe("operational");
    const next = (await h.admin.get("/api/clouds/1/instances/3")).json<Rep>();
    expect(next.state).toBe("inactive");
    const array = (await h.admin.get("/api/server_arrays/1")).json<Rep>();
    expect(rel(array, "next_instance")).toBe("/api/clouds/1/instances/6");
    const instances = (await h.admin.get(rel(array, "current_instances")!)).json<Rep[]>();
    expect(instances.map((i) => i.name)).toEqual(["workers #1", "workers #2"]);
  });

  it("cloud-scoped objects are found only under their cloud; instances filter on state", async () => {
    expect((await h.admin.get("/api/clouds/2/instances/1")).status).toBe(422);
    expect((await h.admin.get("/api/clouds/9/datacenters")).text).toBe(
      "ResourceNotFound: Couldn't find Cloud with ID=9",
    );
    const cloud2 = (await h.admin.get("/api/clouds/2/instances")).json<Rep[]>();
    expect(cloud2.map((i) => i.name)).toEqual(["lab-vm"]);
    const inactive = (
      await h.admin.get("/api/clouds/1/instances", { query: { filter: ["state==inactive"] } })
    ).json<Rep[]>();
    expect(inactive.map((i) => i.name)).toEqual(["app-1 (next)", "app-2 (next)", "workers (next)"]);
  });

  // Issue 37 item 5: python-rightscale lists a deployment's instances with both filters.
  it("instances filter on deployment_href together with state, on both index routes", async () => {
    const names = async (path: string, ...filter: string[]) => {
      const res = await h.admin.get(path, { query: { filter } });
      expect(res.status, res.text).toBe(200);
      return res.json<Rep[]>().map((i) => i.name);
    };
    const running = ["deployment_href==/api/deployments/1", "state==operational"];
    expect(await names("/api/clouds/1/instances", ...running)).toEqual(["app-1", "workers #1", "workers #2"]);
    expect(await names("/api/clouds/1/instances", running[0]!, "state==inactive")).toEqual([
      "app-1 (next)",
      "app-2 (next)",
      "workers (next)",
    ]);
    expect(await names("/api/clouds/2/instances", "deployment_href<>/api/deployments/1")).toEqual(["lab-vm"]);
    expect(await names("/api/clouds/1/instances", "deployment_href==/api/deployments/2")).toEqual([]);
    expect(await names("/api/server_arrays/1/current_instances", ...running)).toEqual([
      "workers #1",
      "workers #2",
    ]);
    const refused = await h.admin.get("/api/clouds/1/instances", {
      query: { filter: ["deployment_href=/api/deployments/1", "state==operational"] },
    });
    expect([refused.status, refused.text]).toEqual([
      400,
      "ParameterError: filter[] 'deployment_href=/api/deployments/1' must be <field>==<value> or <field><><value>",
    ]);
    const unlisted = await h.admin.get("/api/clouds/1/instances", {
      query: { filter: ["server_href==/api/servers/1"] },
    });
    expect([unlisted.status, unlisted.text]).toEqual([
      400,
      "ParameterError: filter[] 'server_href' is not a filter of this index (allowed: name, resource_uid, state, deployment_href)",
    ]);
  });

  it("need a role", async () => {
    expect((await h.user2.get("/api/servers")).status).toBe(403);
    expect((await h.user2.get("/api/clouds/1/instances")).status).toBe(403);
  });
});

describe("servers and server arrays of a deployment (linked from it)", () => {
  it("lists them by the deployment's links", async () => {
    const d = (await h.admin.get("/api/deployments/1")).json<Rep>();
    const servers = (await h.admin.get(rel(d, "servers")!)).json<Rep[]>();
    expect(servers.map((s) => s.name)).toEqual(["app-1", "app-2 (stopped)"]);
    const arrays = (await h.admin.get(rel(d, "server_arrays")!)).json<Rep[]>();
    expect(arrays.map((a) => a.name)).toEqual(["workers"]);
    expect(arrays[0]!.instances_count).toBe(2);
    expect((await h.admin.get("/api/deployments/2/servers")).json()).toEqual([]);
    expect((await h.admin.get("/api/deployments/9/servers")).status).toBe(422);
  });
});

describe("views of the real routes (issue 20)", () => {
  it("servers and arrays: default leaves the instances out, instance_detail embeds them", async () => {
    const plain = (await h.admin.get("/api/servers/1")).json<Rep>();
    expect(plain).toMatchObject({ state: "operational", actions: [] });
    expect(plain).not.toHaveProperty("current_instance");
    expect(plain).not.toHaveProperty("optimized");
    const detail = (await h.admin.get("/api/servers/1", { query: { view: "instance_detail" } })).json<Rep>();
    expect(detail.current_instance).toEqual((await h.admin.get("/api/clouds/1/instances/1")).json());
    expect((detail.next_instance as Rep).name).toBe("app-1 (next)");
    const stopped = (await h.admin.get("/api/servers/2?view=instance_detail")).json<Rep>();
    expect(stopped).toMatchObject({ state: "inactive", current_instance: null });
    const array = (await h.admin.get("/api/server_arrays?view=instance_detail")).json<Rep[]>()[0]!;
    expect((array.current_instances as Rep[]).map((i) => i.name)).toEqual(["workers #1", "workers #2"]);
    expect(array).toMatchObject({
      state: "enabled",
      array_type: "alert",
      instances_count: 2,
      datacenter_policy: [],
    });
    expect((await h.admin.get("/api/servers", { query: { view: "extended" } })).status).toBe(400);
    expect(
      (await h.admin.get("/api/deployments/1/servers", { query: { view: "instance_detail" } })).status,
    ).toBe(200);
  });

  it("instances: tiny names them, default adds addresses, extended the rest and groups, full inputs, sensitive the password", async () => {
    const view = async (v: string) =>
      (await h.admin.get("/api/clouds/1/instances/1", { query: { view: v } })).json<Rep>();
    expect(Object.keys(await view("tiny"))).toEqual(["name", "resource_uid", "state", "links"]);
    const plain = await view("default");
    expect(plain).toMatchObject({ public_ip_addresses: ["203.0.113.1"], private_ip_addresses: ["10.1.0.1"] });
    for (const attribute of [
      "security_groups",
      "description",
      "os_platform",
      "public_dns_names",
      "rs_provisioned",
    ])
      expect(plain).not.toHaveProperty(attribute);
    const extended = await view("extended");
    expect(extended).toMatchObject({
      description: "",
      os_platform: "linux",
      terminated_at: null,
      public_dns_names: ["i-00000001.public.example.com"],
      private_dns_names: ["i-00000001.internal"],
      rs_provisioned: true,
    });
    expect(extended.security_groups).toEqual([
      {
        name: "default",
        resource_uid: "sg-0001",
        links: [{ rel: "self", href: "/api/clouds/1/security_groups/1" }],
      },
    ]);
    const full = await view("full");
    expect(full.inputs).toEqual([
      { name: "APP_ENV", value: "text:production" },
      { name: "INSTANCE_ROLE", value: "text:" },
    ]);
    expect(full).not.toHaveProperty("admin_password");
    expect((await view("full_inputs_2_0")).inputs).toEqual([
      { name: "APP_ENV", value: "text:production" },
      { name: "INSTANCE_ROLE", value: "blank" },
    ]);
    expect(await view("sensitive")).toHaveProperty("admin_password", null);
    const recorded = [
      "self",
      "cloud",
      "deployment",
      "server_template",
      "multi_cloud_image",
      "parent",
      "volume_attachments",
      "inputs",
      "monitoring_metrics",
      "alerts",
    ];
    expect(plain.links.map((l) => l.rel)).toEqual(recorded);
    expect(rel(plain, "multi_cloud_image")).toBe("/api/multi_cloud_images/1");
    expect((await h.admin.get("/api/multi_cloud_images/1")).json()).toEqual({
      name: "Base Linux image",
      description: "Ubuntu 24.04 on every cloud",
      links: [{ rel: "self", href: "/api/multi_cloud_images/1" }],
    });
    expect(extended.links.map((l) => l.rel)).toEqual([
      ...recorded.slice(0, 5),
      "image",
      "instance_type",
      "ssh_key",
      "datacenter",
      ...recorded.slice(5),
      "alert_specs",
    ]);
    const tiny = await h.admin.get("/api/server_arrays/1/current_instances", { query: { view: "tiny" } });
    expect(tiny.json<Rep[]>().map((i) => Object.keys(i).length)).toEqual([4, 4]);
    expect(
      (await h.admin.get("/api/clouds/1/instances", { query: { view: "instance_detail" } })).status,
    ).toBe(400);
  });

  it("stored scripts: show also in inputs_2_0, the index only default; the source link answers the text", async () => {
    const script = (
      await h.admin.get("/api/stored_scripts/1", { query: { view: "inputs_2_0" } })
    ).json<Rep>();
    expect(script).toMatchObject({ id: "1", revision: 0, packages: null });
    expect((await h.admin.get("/api/stored_scripts", { query: { view: "inputs_2_0" } })).status).toBe(400);
    const source = await h.admin.get(rel(script, "source")!);
    expect([source.status, source.headers.get("content-type")]).toEqual([200, "text/plain; charset=utf-8"]);
    expect(source.text).toBe(script.source);
  });

  it("server templates show their inputs only in the inputs views", async () => {
    expect((await h.admin.get("/api/server_templates/2")).json()).not.toHaveProperty("inputs");
    const t = (await h.admin.get("/api/server_templates/2", { query: { view: "inputs" } })).json<Rep>();
    expect(t.inputs).toEqual([{ name: "APP_PORT", value: "text:8080" }]);
  });

  it("snapshots link their parent volume, deployment and recurring attachments", async () => {
    const one = (await h.admin.get("/api/clouds/1/volume_snapshots/1")).json<Rep>();
    expect(rel(one, "parent_volume")).toBe("/api/clouds/1/volumes/1");
    expect(one).toMatchObject({ progress: 100, visibility: "private", cloud_specific_attributes: null });
    const two = (await h.admin.get("/api/clouds/1/volume_snapshots/2")).json<Rep>();
    expect(rel(two, "deployment")).toBe("/api/deployments/1");
    expect(rel(two, "recurring_volume_attachments")).toBe(
      "/api/clouds/1/volume_snapshots/2/recurring_volume_attachments",
    );
    expect((await h.admin.get("/api/clouds/1/volumes/1/volume_snapshots/1")).json()).toEqual(one);
    expect((await h.admin.get("/api/clouds/1/volumes/1/volume_snapshots/2")).status).toBe(422);
  });
});
