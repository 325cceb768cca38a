import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { ResourceModule, RouteDef, SimulatorApi } from "../../src/simulator/resource.ts";
import { accountsResource } from "../../src/simulator/resources/accounts.ts";
import { cloudsResource } from "../../src/simulator/resources/clouds.ts";
import { deploymentsResource } from "../../src/simulator/resources/deployments.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { inputsResource } from "../../src/simulator/resources/inputs.ts";
import { linkedResource } from "../../src/simulator/resources/linked.ts";
import { permissionsResource } from "../../src/simulator/resources/permissions.ts";
import { type Harness, type RequestOptions, SimClient, startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

// Every route of every resource module, with a sample path and the success it answers.
// `setup` creates what the call needs (after a reset, so ids are predictable); `path` may be
// read from the state (signed URLs); `raw` routes serve their own bytes and content type.
interface Extra {
  setup?: (h: Harness) => Promise<unknown>;
  raw?: boolean;
}
type Sample = [
  method: string,
  template: string,
  path: string | ((h: Harness) => Promise<string>),
  status: number,
  options?: RequestOptions,
  extra?: Extra,
];
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

const NETWORK = { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" };
const IP_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "10.9.0.0/16",
  next_hop_type: "ip_string",
  next_hop_ip: "10.0.0.9",
};
/** Network 1 (default route table 1), subnets 1 (cloud) and 2 (instance 1), gateway 1, route 1. */
async function networkStack(h: Harness): Promise<void> {
  await create(h, "/api/networks", { network: NETWORK });
  await create(h, "/api/clouds/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
  });
  await create(h, "/api/clouds/1/instances/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.2.0/24" },
  });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
  });
  await create(h, "/api/routes", { route: IP_ROUTE });
}
const network = { setup: (h: Harness) => create(h, "/api/networks", { network: NETWORK }) };
const stack = { setup: networkStack };
const volume2 = {
  setup: (h: Harness) =>
    create(h, "/api/clouds/1/volumes", {
      volume: { name: "spare", size: "1", datacenter_href: "/api/clouds/1/datacenters/1" },
    }),
};
const RVA = { device: "/dev/xvdb", runnable_href: "/api/servers/1" };
const onVolume = { ...RVA, storage_href: "/api/clouds/1/volumes/1" };
const onSnapshot = { ...RVA, storage_href: "/api/clouds/1/volume_snapshots/1" };
/** RVA 1 on volume 1, RVA 2 on snapshot 1. */
const attachments = {
  setup: async (h: Harness) => {
    await create(h, "/api/clouds/1/recurring_volume_attachments", { recurring_volume_attachment: onVolume });
    await create(h, "/api/clouds/1/recurring_volume_attachments", {
      recurring_volume_attachment: onSnapshot,
    });
  },
};
const ip = {
  setup: (h: Harness) => create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub-1" } }),
};
const BINDING = {
  instance_href: "/api/clouds/1/instances/1",
  public_ip_address_href: "/api/clouds/1/ip_addresses/1",
};
const binding = {
  setup: async (h: Harness) => {
    await ip.setup(h);
    await create(h, "/api/clouds/1/ip_address_bindings", { ip_address_binding: BINDING });
  },
};
const group = {
  setup: (h: Harness) =>
    create(h, "/api/resource_groups", { resource_group: { cloud_href: "/api/clouds/1", name: "rg" } }),
};
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

const OTHER_SAMPLES: Sample[] = [
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
  ["GET", "/api/networks", "/api/networks", 200, {}, network],
  ["GET", "/api/networks/:id", "/api/networks/1", 200, {}, network],
  ["POST", "/api/networks", "/api/networks", 201, { form: { network: NETWORK } }],
  ["PUT", "/api/networks/:id", "/api/networks/1", 204, { form: { network: { name: "n" } } }, network],
  ["DELETE", "/api/networks/:id", "/api/networks/1", 204, {}, network],
  ["GET", "/api/route_tables", "/api/route_tables", 200, {}, network],
  ["GET", "/api/route_tables/:id", "/api/route_tables/1", 200, {}, network],
  ...(["/api/clouds/:cloud_id", "/api/clouds/:cloud_id/instances/:instance_id"] as const).flatMap(
    (template, i): Sample[] => {
      const prefix = ["/api/clouds/1", "/api/clouds/1/instances/1"][i]!;
      const id = String(i + 1);
      return [
        ["GET", `${template}/subnets`, `${prefix}/subnets`, 200, {}, stack],
        ["GET", `${template}/subnets/:id`, `${prefix}/subnets/${id}`, 200, {}, stack],
        [
          "POST",
          `${template}/subnets`,
          `${prefix}/subnets`,
          201,
          { form: { subnet: { network_href: "/api/networks/1", cidr_block: "10.0.3.0/24" } } },
          network,
        ],
        [
          "PUT",
          `${template}/subnets/:id`,
          `${prefix}/subnets/${id}`,
          204,
          { form: { subnet: { name: "s" } } },
          stack,
        ],
        ["DELETE", `${template}/subnets/:id`, `${prefix}/subnets/${id}`, 204, {}, stack],
      ];
    },
  ),
  ["GET", "/api/network_gateways", "/api/network_gateways", 200, {}, stack],
  ["GET", "/api/network_gateways/:id", "/api/network_gateways/1", 200, {}, stack],
  [
    "POST",
    "/api/network_gateways",
    "/api/network_gateways",
    201,
    { form: { network_gateway: { cloud_href: "/api/clouds/1", name: "g", type: "vpn" } } },
  ],
  [
    "PUT",
    "/api/network_gateways/:id",
    "/api/network_gateways/1",
    204,
    { form: { network_gateway: { network_href: "/api/networks/1" } } },
    stack,
  ],
  ["DELETE", "/api/network_gateways/:id", "/api/network_gateways/1", 204, {}, stack],
  ...(["/api/route_tables/:route_table_id", "/api"] as const).flatMap((template): Sample[] => {
    const prefix = template === "/api" ? "/api" : "/api/route_tables/1";
    return [
      ["GET", `${template}/routes`, `${prefix}/routes`, 200, {}, stack],
      ["GET", `${template}/routes/:id`, `${prefix}/routes/1`, 200, {}, stack],
      ["POST", `${template}/routes`, `${prefix}/routes`, 201, { form: { route: IP_ROUTE } }, network],
      [
        "PUT",
        `${template}/routes/:id`,
        `${prefix}/routes/1`,
        204,
        { form: { route: { description: "d" } } },
        stack,
      ],
      ["DELETE", `${template}/routes/:id`, `${prefix}/routes/1`, 204, {}, stack],
    ];
  }),
  ["GET", "/api/clouds/:cloud_id/volumes", "/api/clouds/1/volumes", 200],
  ["GET", "/api/clouds/:cloud_id/volumes/:id", "/api/clouds/1/volumes/1", 200],
  [
    "POST",
    "/api/clouds/:cloud_id/volumes",
    "/api/clouds/1/volumes",
    201,
    { form: { volume: { name: "v", size: "1", datacenter_href: "/api/clouds/1/datacenters/1" } } },
  ],
  [
    "PUT",
    "/api/clouds/:cloud_id/volumes/:id",
    "/api/clouds/1/volumes/1",
    204,
    { form: { volume: { name: "v" } } },
  ],
  ["DELETE", "/api/clouds/:cloud_id/volumes/:id", "/api/clouds/1/volumes/2", 204, {}, volume2],
  ...(
    [
      ["/api/clouds/:cloud_id", "/api/clouds/1", "1", onVolume],
      ["/api/clouds/:cloud_id/volumes/:volume_id", "/api/clouds/1/volumes/1", "1", onVolume],
      [
        "/api/clouds/:cloud_id/volume_snapshots/:volume_snapshot_id",
        "/api/clouds/1/volume_snapshots/1",
        "2",
        onSnapshot,
      ],
    ] as const
  ).flatMap(([template, prefix, id, body]): Sample[] => [
    [
      "GET",
      `${template}/recurring_volume_attachments`,
      `${prefix}/recurring_volume_attachments`,
      200,
      {},
      attachments,
    ],
    [
      "GET",
      `${template}/recurring_volume_attachments/:id`,
      `${prefix}/recurring_volume_attachments/${id}`,
      200,
      {},
      attachments,
    ],
    [
      "POST",
      `${template}/recurring_volume_attachments`,
      `${prefix}/recurring_volume_attachments`,
      201,
      { form: { recurring_volume_attachment: body } },
    ],
    [
      "DELETE",
      `${template}/recurring_volume_attachments/:id`,
      `${prefix}/recurring_volume_attachments/${id}`,
      204,
      {},
      attachments,
    ],
  ]),
  ["GET", "/api/clouds/:cloud_id/ip_addresses", "/api/clouds/1/ip_addresses", 200, {}, ip],
  ["GET", "/api/clouds/:cloud_id/ip_addresses/:id", "/api/clouds/1/ip_addresses/1", 200, {}, ip],
  [
    "POST",
    "/api/clouds/:cloud_id/ip_addresses",
    "/api/clouds/1/ip_addresses",
    201,
    { form: { ip_address: { name: "p" } } },
  ],
  [
    "PUT",
    "/api/clouds/:cloud_id/ip_addresses/:id",
    "/api/clouds/1/ip_addresses/1",
    204,
    { form: { ip_address: { name: "q" } } },
    ip,
  ],
  ["DELETE", "/api/clouds/:cloud_id/ip_addresses/:id", "/api/clouds/1/ip_addresses/1", 204, {}, ip],
  ...(
    [
      ["/api/clouds/:cloud_id", "/api/clouds/1"],
      ["/api/clouds/:cloud_id/ip_addresses/:ip_address_id", "/api/clouds/1/ip_addresses/1"],
    ] as const
  ).flatMap(([template, prefix]): Sample[] => [
    ["GET", `${template}/ip_address_bindings`, `${prefix}/ip_address_bindings`, 200, {}, binding],
    ["GET", `${template}/ip_address_bindings/:id`, `${prefix}/ip_address_bindings/1`, 200, {}, binding],
    [
      "POST",
      `${template}/ip_address_bindings`,
      `${prefix}/ip_address_bindings`,
      201,
      { form: { ip_address_binding: BINDING } },
      ip,
    ],
    ["DELETE", `${template}/ip_address_bindings/:id`, `${prefix}/ip_address_bindings/1`, 204, {}, binding],
  ]),
  ["GET", "/api/resource_groups", "/api/resource_groups", 200, {}, group],
  ["GET", "/api/resource_groups/:id", "/api/resource_groups/1", 200, {}, group],
  [
    "POST",
    "/api/resource_groups",
    "/api/resource_groups",
    201,
    { form: { resource_group: { cloud_href: "/api/clouds/1", name: "r" } } },
  ],
  [
    "PUT",
    "/api/resource_groups/:id",
    "/api/resource_groups/1",
    204,
    { form: { resource_group: { description: "" } } },
    group,
  ],
  ["DELETE", "/api/resource_groups/:id", "/api/resource_groups/1", 204, {}, group],
  ["GET", "/api/clouds/:cloud_id/security_groups", "/api/clouds/1/security_groups", 200],
  ["GET", "/api/clouds/:cloud_id/security_groups/:id", "/api/clouds/1/security_groups/1", 200],
  ["GET", "/api/clouds/:cloud_id/ssh_keys", "/api/clouds/2/ssh_keys", 200],
  ["GET", "/api/clouds/:cloud_id/ssh_keys/:id", "/api/clouds/2/ssh_keys/2", 200],
  ["GET", "/api/clouds/:cloud_id/volume_attachments", "/api/clouds/1/volume_attachments", 200],
  ["GET", "/api/clouds/:cloud_id/volume_attachments/:id", "/api/clouds/1/volume_attachments/1", 200],
  [
    "GET",
    "/api/clouds/:cloud_id/volumes/:volume_id/volume_snapshots",
    "/api/clouds/1/volumes/1/volume_snapshots",
    200,
  ],
  ["GET", "/api/clouds/:cloud_id/network_interfaces", "/api/clouds/1/network_interfaces", 200],
  ["GET", "/api/clouds/:cloud_id/network_interfaces/:id", "/api/clouds/1/network_interfaces/eni-1", 200],
  ["GET", "/api/deployments/:id/alerts", "/api/deployments/1/alerts", 200],
  ["GET", "/api/accounts/:id", "/api/accounts/1", 200],
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

  it.each(SAMPLES)("%s %s answers its success with no suffix, .json and .xml", run);
});

describe("routes of every other resource module", () => {
  it("the sample table covers every route registered by every module", () => {
    expect([...SAMPLES, ...OTHER_SAMPLES].map(([m, t]) => `${m} ${t}`).sort()).toEqual(
      templatesOf(resources),
    );
  });

  it.each(OTHER_SAMPLES)("%s %s answers its success with no suffix, .json and .xml", run);
});

async function run(...[method, _t, pathOf, status, options, extra]: Sample): Promise<void> {
  const client =
    typeof pathOf === "string" && /^\/api\/(session|oauth2)/.test(pathOf) ? new SimClient(h.url) : h.admin;
  // Signed download and graph URLs end in their signature: a suffix would be part of it.
  for (const suffix of extra?.raw ? [""] : ["", ".json", ".xml"]) {
    await h.hook("reset");
    // deployment 2 is seeded locked; deployment 1 holds servers
    if (method === "DELETE" && pathOf === "/api/deployments/2")
      await h.admin.post("/api/deployments/2/unlock");
    await extra?.setup?.(h);
    const path = typeof pathOf === "string" ? pathOf : await pathOf(h);
    const [bare, query] = path.split("?");
    const res = await client.request(method, `${bare}${suffix}${query ? `?${query}` : ""}`, options);
    expect(res.status, `${method} ${path}${suffix}: ${res.text}`).toBe(status);
    if (status === 200 && !extra?.raw && !path.startsWith("/api/oauth2")) {
      const type = res.headers.get("content-type")!;
      expect(type).toMatch(
        suffix === ".xml" ? /^application\/vnd\.svc\.\w+\+xml/ : /^application\/vnd\.svc\.\w+\+json/,
      );
      if (suffix === ".xml") expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      else JSON.parse(res.text);
    }
    if (status === 201) expect(res.headers.get("location")).toMatch(/^\/api\/[\w/-]+$/);
    if (status === 204) expect(res.text).toBe("");
  }
}
