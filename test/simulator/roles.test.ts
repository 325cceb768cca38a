import { afterAll, describe, expect, it } from "vitest";
import { resources } from "../../src/simulator/resources/index.ts";
import { ROLE_TITLES } from "../../src/simulator/roles.ts";
import { defaultSeed, validateSeed } from "../../src/simulator/seed.ts";
import { login, type RequestOptions, type SimClient, startSimulator } from "./harness.ts";

// Spec 5.3, row by row: each role of a row's `a||b` alone is enough (with the row's
// settings), a user holding every OTHER role is refused with 403 naming the roles, and a
// user holding every role but not the row's setting is refused with 403 naming the setting.

interface Row {
  row: string;
  roles: string[];
  settings: string[];
  calls: Array<[method: string, path: string, options?: RequestOptions]>;
}

const ROWS: Row[] = [
  {
    row: "deployments index, show",
    roles: ["observer"],
    settings: [],
    calls: [
      ["GET", "/api/deployments"],
      ["GET", "/api/deployments/1"],
    ],
  },
  {
    row: "deployments create, update, destroy, clone",
    roles: ["actor"],
    settings: ["premium_deployments"],
    calls: [
      ["POST", "/api/deployments", { form: { deployment: { name: "new" } } }],
      ["PUT", "/api/deployments/1", { form: { deployment: { description: "d" } } }],
      ["DELETE", "/api/deployments/99"],
      ["POST", "/api/deployments/1/clone"],
    ],
  },
  {
    row: "deployments lock",
    roles: ["actor"],
    settings: [],
    calls: [["POST", "/api/deployments/1/lock"]],
  },
  {
    row: "volumes, recurring volume attachments index, show",
    roles: ["observer", "instance"],
    settings: [],
    calls: [
      ["GET", "/api/clouds/1/volumes"],
      ["GET", "/api/clouds/1/volumes/1"],
      ["GET", "/api/clouds/1/recurring_volume_attachments"],
      ["GET", "/api/clouds/1/volumes/1/recurring_volume_attachments"],
      ["GET", "/api/clouds/1/recurring_volume_attachments/99"],
    ],
  },
  {
    row: "volumes create, update, destroy; recurring volume attachments create, destroy",
    roles: ["actor", "instance"],
    settings: [],
    calls: [
      ["POST", "/api/clouds/1/volumes", { form: { volume: { name: "v" } } }],
      ["PUT", "/api/clouds/1/volumes/1", { form: { volume: { name: "v" } } }],
      ["DELETE", "/api/clouds/1/volumes/99"],
      ["POST", "/api/clouds/1/recurring_volume_attachments", { form: { recurring_volume_attachment: {} } }],
      ["DELETE", "/api/clouds/1/recurring_volume_attachments/99"],
    ],
  },
  {
    row: "networks index, show",
    roles: ["observer"],
    settings: [],
    calls: [
      ["GET", "/api/networks"],
      ["GET", "/api/networks/99"],
    ],
  },
  {
    row: "networks create, update, destroy",
    roles: ["security_manager"],
    settings: [],
    calls: [
      [
        "POST",
        "/api/networks",
        { form: { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } } },
      ],
      ["PUT", "/api/networks/99", { form: { network: { name: "n" } } }],
      ["DELETE", "/api/networks/99"],
    ],
  },
  {
    row: "ip address bindings index, show",
    roles: ["observer"],
    settings: [],
    calls: [
      ["GET", "/api/clouds/1/ip_address_bindings"],
      ["GET", "/api/clouds/1/ip_address_bindings/99"],
    ],
  },
  {
    row: "ip address bindings create, destroy",
    roles: ["actor"],
    settings: [],
    calls: [
      ["POST", "/api/clouds/1/ip_address_bindings", { form: { ip_address_binding: {} } }],
      ["DELETE", "/api/clouds/1/ip_address_bindings/99"],
    ],
  },
  {
    row: "monitoring metrics index, show, data",
    roles: ["observer"],
    settings: ["monitoring_api"],
    calls: [
      ["GET", "/api/clouds/1/instances/1/monitoring_metrics"],
      ["GET", "/api/clouds/1/instances/1/monitoring_metrics/cpu-0:cpu-idle"],
      [
        "GET",
        "/api/clouds/1/instances/1/monitoring_metrics/cpu-0:cpu-idle/data",
        { query: { start: "-60", end: "0" } },
      ],
    ],
  },
  {
    row: "clouds index, show",
    roles: ["observer", "instance", "infrastructure"],
    settings: [],
    calls: [
      ["GET", "/api/clouds"],
      ["GET", "/api/clouds/1"],
    ],
  },
  {
    row: "volume types index, show",
    roles: ["observer", "instance"],
    settings: [],
    calls: [
      ["GET", "/api/clouds/1/volume_types"],
      ["GET", "/api/clouds/1/volume_types/1"],
    ],
  },
];

const SETTINGS = ["premium_deployments", "monitoring_api"];
const key = (roles: string[]) => [...roles].sort().join("+");

// Users: one per single role (both settings), one holding every role but the roles of each
// row (both settings), one holding every role and no setting.
const users: Array<{ email: string; roles: readonly string[]; settings: string[] }> = [];
const single = new Map<string, string>();
const allBut = new Map<string, string>();
for (const role of new Set(ROWS.flatMap((r) => r.roles))) {
  single.set(role, `only-${role}@example.com`);
  users.push({ email: `only-${role}@example.com`, roles: [role], settings: SETTINGS });
}
for (const row of ROWS) {
  const email = `all-but-${key(row.roles)}@example.com`;
  if (allBut.has(key(row.roles))) continue;
  allBut.set(key(row.roles), email);
  users.push({ email, roles: ROLE_TITLES.filter((r) => !row.roles.includes(r)), settings: SETTINGS });
}
users.push({ email: "no-settings@example.com", roles: ROLE_TITLES, settings: [] });

const seed = defaultSeed(resources);
users.forEach((u, i) => {
  const id = String(100 + i);
  seed.users!.push({ id, email: u.email, password: "p", settings: u.settings } as never);
  for (const role of u.roles) seed.permissions!.push({ user_id: id, role_title: role } as never);
});

const h = await startSimulator({ seed: validateSeed(seed, resources) });
afterAll(() => h.close());
const clients = new Map<string, SimClient>();
const as = async (email: string) => {
  let client = clients.get(email);
  if (!client) {
    client = await login(h.url, email, "p");
    clients.set(email, client);
  }
  return client;
};

describe("required roles and settings (spec 5.3)", () => {
  it.each(ROWS.map((r) => [r.row, r] as const))("%s", async (_name, row) => {
    for (const role of row.roles) {
      const client = await as(single.get(role)!);
      for (const [method, path, options] of row.calls) {
        await h.hook("reset");
        const res = await client.request(method, path, options);
        expect(res.status, `${role} ${method} ${path}: ${res.text}`).not.toBe(403);
      }
    }
    const others = await as(allBut.get(key(row.roles))!);
    for (const [method, path, options] of row.calls) {
      const res = await h.expectUnchanged(() => others.request(method, path, options));
      expect(res.status, `every other role ${method} ${path}`).toBe(403);
      expect(res.text).toMatch(/^PermissionDenied: /);
      for (const role of row.roles) expect(res.text).toContain(role);
    }
    const noSettings = await as("no-settings@example.com");
    for (const [method, path, options] of row.calls) {
      const res = await noSettings.request(method, path, options);
      if (row.settings.length === 0) {
        expect(res.status, `no settings ${method} ${path}: ${res.text}`).not.toBe(403);
      } else {
        expect(res.status, `no settings ${method} ${path}`).toBe(403);
        for (const setting of row.settings) expect(res.text).toContain(setting);
      }
    }
  });
});
