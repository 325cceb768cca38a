import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { ResourceModule, RouteDef, SimulatorApi } from "../../src/simulator/resource.ts";
import { accountsResource } from "../../src/simulator/resources/accounts.ts";
import { cloudsResource } from "../../src/simulator/resources/clouds.ts";
import { deploymentsResource } from "../../src/simulator/resources/deployments.ts";
import { inputsResource } from "../../src/simulator/resources/inputs.ts";
import { linkedResource } from "../../src/simulator/resources/linked.ts";
import { permissionsResource } from "../../src/simulator/resources/permissions.ts";
import { type RequestOptions, SimClient, startSimulator } from "./harness.ts";

// Every route of the SIM-CORE modules, with a sample path and the success it answers.
type Sample = [method: string, template: string, path: string, status: number, options?: RequestOptions];
const login = { form: { email: "admin@example.com", password: "password", account_href: "/api/accounts/1" } };
const SAMPLES: Sample[] = [
  ["POST", "/api/session", "/api/session", 204, login],
  ["POST", "/api/sessions", "/api/sessions", 204, login],
  [
    "POST",
    "/api/oauth2",
    "/api/oauth2",
    200,
    { form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token" } },
  ],
  ["GET", "/api/users", "/api/users", 200],
  ["GET", "/api/users/:id", "/api/users/2", 200],
  ["GET", "/api/permissions", "/api/permissions", 200],
  ["GET", "/api/permissions/:id", "/api/permissions/1-admin", 200],
  [
    "POST",
    "/api/permissions",
    "/api/permissions",
    201,
    { form: { permission: { user_href: "/api/users/2", role_title: "observer" } } },
  ],
  ["DELETE", "/api/permissions/:id", "/api/permissions/1-ss_observer", 204],
  ["GET", "/api/deployments", "/api/deployments", 200],
  ["GET", "/api/deployments/:id", "/api/deployments/1", 200],
  ["POST", "/api/deployments", "/api/deployments", 201, { form: { deployment: { name: "new" } } }],
  ["PUT", "/api/deployments/:id", "/api/deployments/1", 204, { form: { deployment: { description: "d" } } }],
  ["DELETE", "/api/deployments/:id", "/api/deployments/2", 204],
  ["POST", "/api/deployments/:id/clone", "/api/deployments/1/clone", 201],
  ["POST", "/api/deployments/:id/lock", "/api/deployments/1/lock", 204],
  ["POST", "/api/deployments/:id/unlock", "/api/deployments/2/unlock", 204],
  ["GET", "/api/clouds", "/api/clouds", 200],
  ["GET", "/api/clouds/:id", "/api/clouds/1", 200],
  ["GET", "/api/clouds/:cloud_id/instance_types", "/api/clouds/1/instance_types", 200],
  ["GET", "/api/clouds/:cloud_id/instance_types/:id", "/api/clouds/1/instance_types/2", 200],
  ["GET", "/api/clouds/:cloud_id/volume_types", "/api/clouds/2/volume_types", 200],
  ["GET", "/api/clouds/:cloud_id/volume_types/:id", "/api/clouds/2/volume_types/3", 200],
  ["GET", "/api/clouds/:cloud_id/datacenters", "/api/clouds/1/datacenters", 200],
  ["GET", "/api/clouds/:cloud_id/datacenters/:id", "/api/clouds/1/datacenters/2", 200],
  ["GET", "/api/clouds/:cloud_id/images", "/api/clouds/1/images", 200],
  ["GET", "/api/clouds/:cloud_id/images/:id", "/api/clouds/2/images/3", 200],
  ["GET", "/api/clouds/:cloud_id/volume_snapshots", "/api/clouds/1/volume_snapshots", 200],
  ["GET", "/api/clouds/:cloud_id/volume_snapshots/:id", "/api/clouds/1/volume_snapshots/1", 200],
  ["GET", "/api/clouds/:cloud_id/instances", "/api/clouds/1/instances", 200],
  ["GET", "/api/clouds/:cloud_id/instances/:id", "/api/clouds/1/instances/3", 200],
  ["GET", "/api/server_templates", "/api/server_templates", 200],
  ["GET", "/api/server_templates/:id", "/api/server_templates/2", 200],
  ["GET", "/api/servers", "/api/servers", 200],
  ["GET", "/api/servers/:id", "/api/servers/1", 200],
  ["GET", "/api/server_arrays", "/api/server_arrays", 200],
  ["GET", "/api/server_arrays/:id", "/api/server_arrays/1", 200],
  ["GET", "/api/server_arrays/:id/current_instances", "/api/server_arrays/1/current_instances", 200],
  ["GET", "/api/stored_scripts", "/api/stored_scripts", 200],
  ["GET", "/api/stored_scripts/:id", "/api/stored_scripts/1", 200],
  ["GET", "/api/deployments/:id/servers", "/api/deployments/1/servers", 200],
  ["GET", "/api/deployments/:id/server_arrays", "/api/deployments/1/server_arrays", 200],
  ["GET", "/api/deployments/:deployment_id/inputs", "/api/deployments/1/inputs", 200],
  ["GET", "/api/server_templates/:server_template_id/inputs", "/api/server_templates/1/inputs", 200],
  ["GET", "/api/clouds/:cloud_id/instances/:instance_id/inputs", "/api/clouds/1/instances/1/inputs", 200],
  ...(["/api/deployments/1", "/api/server_templates/1", "/api/clouds/1/instances/1"].map((owner, i) => [
    "PUT",
    [
      "/api/deployments/:deployment_id",
      "/api/server_templates/:server_template_id",
      "/api/clouds/:cloud_id/instances/:instance_id",
    ][i]! + "/inputs/multi_update",
    `${owner}/inputs/multi_update`,
    204,
    { form: { inputs: { APP_ENV: "text:x" } } },
  ]) as Sample[]),
];

function templatesOf(modules: ResourceModule[]): string[] {
  const defs: RouteDef[] = [];
  const api = {
    route: (def: RouteDef) => defs.push(def),
    urls: { primary: "", region: "" },
  } as unknown as SimulatorApi;
  for (const m of modules) m.register(api);
  return defs.map((d) => `${d.method} ${d.path}`).sort();
}

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

describe("SIM-CORE routes", () => {
  it("the sample table covers every route the SIM-CORE modules register", () => {
    const registered = templatesOf([
      accountsResource,
      permissionsResource,
      deploymentsResource,
      cloudsResource,
      linkedResource,
      inputsResource,
    ]);
    expect(SAMPLES.map(([m, t]) => `${m} ${t}`).sort()).toEqual(registered);
  });

  it.each(SAMPLES)(
    "%s %s answers its success with no suffix, .json and .xml",
    async (method, _t, path, status, options) => {
      const client =
        path.startsWith("/api/session") || path.startsWith("/api/oauth2") ? new SimClient(h.url) : h.admin;
      for (const suffix of ["", ".json", ".xml"]) {
        await h.hook("reset");
        // deployment 2 is seeded locked; deployment 1 holds servers
        if (method === "DELETE" && path === "/api/deployments/2")
          await h.admin.post("/api/deployments/2/unlock");
        const res = await client.request(method, `${path}${suffix}`, options);
        expect(res.status, `${method} ${path}${suffix}: ${res.text}`).toBe(status);
        if (status === 200 && !path.startsWith("/api/oauth2")) {
          const type = res.headers.get("content-type")!;
          expect(type).toMatch(
            suffix === ".xml" ? /^application\/vnd\.svc\.\w+\+xml/ : /^application\/vnd\.svc\.\w+\+json/,
          );
          if (suffix === ".xml")
            expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
          else JSON.parse(res.text);
        }
        if (status === 201) expect(res.headers.get("location")).toMatch(/^\/api\/\w+\/[\w-]+$/);
        if (status === 204) expect(res.text).toBe("");
      }
    },
  );
});
