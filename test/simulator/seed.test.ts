import { afterAll, describe, expect, it } from "vitest";
import { ROLE_TITLES } from "../../src/simulator/roles.ts";
import { login, oauthClient, startSimulator } from "./harness.ts";

// Issue 2 item 10, the default seed as listed, read over the API.
const h = await startSimulator();
afterAll(() => h.close());

interface Rep {
  name: string;
  state?: string;
  links: Array<{ rel: string; href: string }>;
  [field: string]: unknown;
}
const list = async (path: string, query?: Record<string, unknown>) => {
  const res = await h.admin.get(path, query ? { query } : {});
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return res.json<Rep[]>();
};
const rel = (rep: Rep, name: string) => rep.links.find((l) => l.rel === name)?.href;

describe("the default seed (item 10)", () => {
  it("account 1 on the primary port; user 1 admin@example.com with every role and both settings", async () => {
    const account = await h.admin.get("/api/accounts/1");
    expect(account.status).toBe(200);
    const roles = (await list("/api/permissions", { filter: ["user_href==/api/users/1"] })).map(
      (p) => p.role_title,
    );
    expect([...roles].sort()).toEqual([...ROLE_TITLES].sort());
    // both settings: a premium deployment call and a monitoring call pass
    expect((await h.admin.post("/api/deployments", { form: { deployment: { name: "p" } } })).status).toBe(
      201,
    );
    expect((await h.admin.get("/api/clouds/1/instances/1/monitoring_metrics")).status).toBe(200);
  });

  it("user 2 user2@example.com / password logs in and holds no role", async () => {
    const user2 = await login(h.url, "user2@example.com", "password");
    expect(await list("/api/permissions", { filter: ["user_href==/api/users/2"] })).toEqual([]);
    expect((await user2.get("/api/deployments")).status).toBe(403);
  });

  it("the OAuth refresh token dev-refresh-token acts as user 1", async () => {
    const bearer = await oauthClient(h.url, "dev-refresh-token");
    expect((await bearer.get("/api/permissions/1-admin")).status).toBe(200);
    expect(
      (await bearer.post("/api/deployments", { form: { deployment: { name: "via token" } } })).status,
    ).toBe(201);
  });

  it("cloud 1 has every capability true; cloud 2 has no networks and no route tables", async () => {
    const clouds = await list("/api/clouds", { view: "extended" });
    const caps = (c: Rep) =>
      Object.fromEntries(
        (c.capabilities as Array<{ name: string; value: string }>).map((x) => [x.name, x.value]),
      );
    expect(clouds.length).toBeGreaterThanOrEqual(2);
    expect(Object.values(caps(clouds[0]!)).every((v) => v === "true")).toBe(true);
    expect(caps(clouds[1]!)).toMatchObject({ supports_networks: "false", supports_route_tables: "false" });
  });

  it("each cloud has datacenters, instance types (one deleted), volume types and images", async () => {
    for (const cloud of ["1", "2"]) {
      expect((await list(`/api/clouds/${cloud}/datacenters`)).length, `cloud ${cloud}`).toBeGreaterThan(0);
      expect((await list(`/api/clouds/${cloud}/volume_types`)).length, `cloud ${cloud}`).toBeGreaterThan(0);
      expect((await list(`/api/clouds/${cloud}/images`)).length, `cloud ${cloud}`).toBeGreaterThan(0);
      expect((await list(`/api/clouds/${cloud}/instance_types`)).length, `cloud ${cloud}`).toBeGreaterThan(0);
    }
    const live = await list("/api/clouds/1/instance_types");
    const all = await list("/api/clouds/1/instance_types", { with_deleted: "true" });
    expect(all.length).toBe(live.length + 1);
  });

  it("server templates, servers with current and next instances, arrays with current and next instances", async () => {
    expect((await list("/api/server_templates")).length).toBeGreaterThan(0);
    const servers = await list("/api/servers");
    const server = servers.find((s) => rel(s, "current_instance") && rel(s, "next_instance"));
    expect(server, "a server with a current and a next instance").toBeDefined();
    const current = (await h.admin.get(rel(server!, "current_instance")!)).json<Rep>();
    const next = (await h.admin.get(rel(server!, "next_instance")!)).json<Rep>();
    expect([current.state, next.state]).toEqual(["operational", "inactive"]);
    const arrays = await list("/api/server_arrays");
    const array = arrays.find((a) => rel(a, "next_instance"));
    expect(array).toBeDefined();
    expect((await list(rel(array!, "current_instances")!)).length).toBeGreaterThan(0);
  });

  it("volume snapshots and stored scripts", async () => {
    expect((await list("/api/clouds/1/volume_snapshots")).length).toBeGreaterThan(0);
    expect((await list("/api/stored_scripts")).length).toBeGreaterThan(0);
  });

  it("a deployment with inputs, some of them unset", async () => {
    const deployments = await list("/api/deployments", { view: "inputs_2_0" });
    const withInputs = deployments.find((d) => (d.inputs as unknown[]).length > 0);
    expect(withInputs).toBeDefined();
    const values = (withInputs!.inputs as Array<{ value: string }>).map((i) => i.value);
    expect(values).toContain("blank");
    expect(values.some((v) => v.startsWith("text:") && v.length > 5)).toBe(true);
  });

  it("monitoring metrics on the running instances", async () => {
    const instances = await list("/api/clouds/1/instances", { filter: ["state==operational"] });
    expect(instances.length).toBeGreaterThan(0);
    for (const instance of instances)
      expect((await list(rel(instance, "monitoring_metrics")!)).length, instance.name).toBeGreaterThan(0);
  });
});
