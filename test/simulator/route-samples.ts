import type { ResourceModule, RouteDef, SimulatorApi } from "../../src/simulator/resource.ts";
import type { Harness, RequestOptions } from "./harness.ts";
import { create } from "./net-helpers.ts";
import { NET_SAMPLES } from "./route-samples-net.ts";

// `setup` creates what the call needs (after a reset, so ids are predictable); `path` may be
// read from the state (signed URLs); `raw` routes serve their own bytes and content type.
export interface Extra {
  setup?: (h: Harness) => Promise<unknown>;
  raw?: boolean;
}
export type Sample = [
  method: string,
  template: string,
  path: string | ((h: Harness) => Promise<string>),
  status: number,
  options?: RequestOptions,
  extra?: Extra,
];
const login = { form: { email: "admin@example.com", password: "password", account_href: "/api/accounts/1" } };
/** The routes of the SIM-CORE modules (accounts, sessions, permissions, deployments, clouds, linked, inputs). */
export const SAMPLES: Sample[] = [
  ["POST", "/api/session", "/api/session", 204, login],
  ["POST", "/api/sessions", "/api/sessions", 204, login],
  [
    "POST",
    "/api/oauth2",
    "/api/oauth2",
    200,
    { form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token" } },
  ],

  ["GET", "/api/session", "/api/session", 200],
  // Without a view, the recorded real answer: an empty 200 (sessions.test.ts).
  ["GET", "/api/sessions", "/api/sessions?view=default", 200],
  ["GET", "/api/session/accounts", "/api/session/accounts", 200],
  ["GET", "/api/sessions/accounts", "/api/sessions/accounts", 200],
  ["GET", "/api/health-check", "/api/health-check/", 200, {}, { raw: true }],
  ["GET", "/api/users", "/api/users", 200],
  ["GET", "/api/users/:id", "/api/users/2", 200],
  ["GET", "/api/accounts/:id", "/api/accounts/1", 200],
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
  ["GET", "/api/stored_scripts/:id/source", "/api/stored_scripts/1/source", 200, {}, { raw: true }],
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

const ALERT = {
  name: "disk",
  file: "df/df-root",
  variable: "free",
  condition: "<",
  threshold: "10",
  duration: "5",
  escalation_name: "critical",
};
/** Alert spec 3 on the subject of `prefix` (1 and 2 are seeded on server template 1 and server 1). */
const alertOn = (prefix: string) => ({
  setup: (h: Harness) => create(h, `${prefix}/alert_specs`, { alert_spec: ALERT }),
});
const alertPrefixes: Array<[template: string, path: string, id: string, extra?: Extra]> = [
  ["/api", "/api", "1"],
  ["/api/server_templates/:server_template_id", "/api/server_templates/1", "1"],
  ["/api/servers/:server_id", "/api/servers/1", "2"],
  ["/api/server_arrays/:server_array_id", "/api/server_arrays/1", "3", alertOn("/api/server_arrays/1")],
  [
    "/api/clouds/:cloud_id/instances/:instance_id",
    "/api/clouds/1/instances/1",
    "3",
    alertOn("/api/clouds/1/instances/1"),
  ],
];
const AUDIT_WINDOW =
  "start_date=2025/01/01%2000:00:00%20%2B0000&end_date=2025/02/01%2000:00:00%20%2B0000&limit=10";
const ATTACHMENTS = "/api/stored_scripts/1/attachments";
const upload = () => {
  const form = new FormData();
  form.append("stored_script_attachment[filename]", "run.sh");
  form.append("stored_script_attachment[content]", new Blob(["echo hi\n"]), "run.sh");
  return form;
};
const METRICS = "/api/clouds/1/instances/1/monitoring_metrics";
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The routes of every other module. */
export const OTHER_SAMPLES: Sample[] = [
  ...alertPrefixes.flatMap(([template, prefix, id, extra]): Sample[] => [
    ["GET", `${template}/alert_specs`, `${prefix}/alert_specs`, 200],
    ["GET", `${template}/alert_specs/:id`, `${prefix}/alert_specs/${id}`, 200, {}, extra],
    [
      "POST",
      `${template}/alert_specs`,
      `${prefix}/alert_specs`,
      201,
      // the flat prefix names its subject in the body
      { form: { alert_spec: prefix === "/api" ? { ...ALERT, subject_href: "/api/servers/1" } : ALERT } },
    ],
    [
      "PUT",
      `${template}/alert_specs/:id`,
      `${prefix}/alert_specs/${id}`,
      204,
      { form: { alert_spec: { threshold: "20" } } },
      extra,
    ],
    ["DELETE", `${template}/alert_specs/:id`, `${prefix}/alert_specs/${id}`, 204, {}, extra],
  ]),
  ["GET", "/api/audit_entries", `/api/audit_entries?${AUDIT_WINDOW}`, 200],
  ["GET", "/api/audit_entries/:id", "/api/audit_entries/1", 200],
  ["GET", "/api/audit_entries/:id/detail", "/api/audit_entries/1/detail", 200, {}, { raw: true }],
  [
    "POST",
    "/api/audit_entries",
    "/api/audit_entries",
    201,
    { form: { audit_entry: { auditee_href: "/api/deployments/1", summary: "s" } } },
  ],
  ["PUT", "/api/audit_entries/:id", "/api/audit_entries/1", 204, { form: { audit_entry: { summary: "u" } } }],
  ["POST", "/api/audit_entries/:id/append", "/api/audit_entries/1/append", 204, { form: { detail: "more" } }],
  ["GET", "/api/stored_scripts/:stored_script_id/attachments", ATTACHMENTS, 200],
  ["GET", "/api/stored_scripts/:stored_script_id/attachments/:id", `${ATTACHMENTS}/1`, 200],
  ["POST", "/api/stored_scripts/:stored_script_id/attachments", ATTACHMENTS, 201, { multipart: upload() }],
  [
    "PUT",
    "/api/stored_scripts/:stored_script_id/attachments/:id",
    `${ATTACHMENTS}/1`,
    204,
    { multipart: upload() },
  ],
  ["DELETE", "/api/stored_scripts/:stored_script_id/attachments/:id", `${ATTACHMENTS}/1`, 204],
  [
    "GET",
    "/downloads/stored_scripts/:stored_script_id/attachments/:id",
    async (h) =>
      pathOf((await h.admin.get(`${ATTACHMENTS}/1`)).json<{ download_url: string }>().download_url),
    200,
    {},
    { raw: true },
  ],
  ["GET", "/api/clouds/:cloud_id/instances/:instance_id/monitoring_metrics", METRICS, 200],
  [
    "GET",
    "/api/clouds/:cloud_id/instances/:instance_id/monitoring_metrics/:id",
    `${METRICS}/cpu-0:cpu-idle`,
    200,
  ],
  [
    "GET",
    "/api/clouds/:cloud_id/instances/:instance_id/monitoring_metrics/:id/data",
    `${METRICS}/cpu-0:cpu-idle/data?start=-600&end=0`,
    200,
  ],
  [
    "GET",
    "/graphs/clouds/:cloud_id/instances/:instance_id/monitoring_metrics/:id",
    async (h) =>
      pathOf((await h.admin.get(`${METRICS}/cpu-0:cpu-idle`)).json<{ graph_href: string }>().graph_href),
    200,
    {},
    { raw: true },
  ],
  ...NET_SAMPLES,
];

/** `METHOD template` of every route the modules register, sorted. */
export function templatesOf(modules: ResourceModule[]): string[] {
  const defs: RouteDef[] = [];
  const api = {
    route: (def: RouteDef) => defs.push(def),
    urls: { primary: "", region: "" },
  } as unknown as SimulatorApi;
  for (const m of modules) m.register(api);
  return defs.map((d) => `${d.method} ${d.path}`).sort();
}
