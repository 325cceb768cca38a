import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

// Spec 2.2, resource by resource: the key set of a representation (the table's fields plus
// the attributes the real media type adds, nothing else; conformance.test.ts holds every
// resource to the reference data), the JSON type of each
// field, the rels of `links`, the media type, and the XML root elements (2.1.1).
const h = await startSimulator();
afterAll(() => h.close());

/**
 * `timestamp` is `YYYY/MM/DD HH:MM:SS +0000`; a trailing `?` also allows null (2.1.4: null
 * or empty values are null); `nullable` is any scalar or null (instance type figures).
 */
type FieldType =
  | "string"
  | "string?"
  | "number"
  | "number?"
  | "boolean"
  | "timestamp"
  | "timestamp?"
  | "list"
  | "hash?"
  | "nullable";

interface Row {
  resource: string;
  /** Show path of an object that carries every rel the spec lists. */
  path: string;
  /** Its collection (index) path. */
  index: string;
  type: string;
  plural: string;
  fields: Record<string, FieldType>;
  /** Fields beyond the table that the real media type declares (fixtures/real-media-types.json). */
  extras?: Record<string, FieldType>;
  rels: string[];
  /** Fields of the object (under `path`) whose value is null: rendered as an empty XML element. */
  nullField?: string;
}

const TIMESTAMP = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \+0000$/;

function typeOf(value: unknown, expected: FieldType): boolean {
  if (value === null) return expected.endsWith("?") || expected === "nullable";
  switch (expected.replace("?", "")) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "timestamp":
      return typeof value === "string" && TIMESTAMP.test(value);
    case "list":
      return Array.isArray(value);
    case "hash":
      return typeof value === "object" && !Array.isArray(value);
    case "nullable":
      return ["string", "number", "boolean"].includes(typeof value);
    default:
      return false;
  }
}

const ROWS: Row[] = [
  {
    resource: "Deployment",
    path: "/api/deployments/3",
    index: "/api/deployments",
    type: "deployment",
    plural: "deployments",
    fields: {
      name: "string",
      description: "string?",
      locked: "boolean",
      server_tag_scope: "string",
      links: "list",
      actions: "list",
    },
    rels: ["inputs", "self", "servers", "server_arrays", "alerts"],
    nullField: "description",
  },
  {
    resource: "Route",
    path: "/api/routes/1",
    index: "/api/routes",
    type: "route",
    plural: "routes",
    fields: {
      description: "string?",
      destination_cidr_block: "string",
      next_hop_type: "string",
      state: "string",
      resource_uid: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      links: "list",
      cloud_specific_attributes: "hash?",
    },
    extras: { next_hop_ip: "string?", next_hop_url: "string?" },
    rels: ["self", "route_table", "cloud", "next_hop"],
    nullField: "next_hop_ip",
  },
  {
    resource: "Volume",
    path: "/api/clouds/1/volumes/1",
    index: "/api/clouds/1/volumes",
    type: "volume",
    plural: "volumes",
    fields: {
      created_at: "timestamp?",
      updated_at: "timestamp",
      name: "string",
      resource_uid: "string",
      size: "number",
      description: "string",
      status: "string",
      cloud_specific_attributes: "hash?",
      links: "list",
      actions: "list",
    },
    extras: { iops: "number?", volume_type: "hash?", placement_group: "hash?" },
    rels: [
      "self",
      "cloud",
      "datacenter",
      "deployment",
      "volume_type",
      "volume_snapshots",
      "current_volume_attachment",
      "recurring_volume_attachments",
    ],
    nullField: "cloud_specific_attributes",
  },
  {
    resource: "RecurringVolumeAttachment",
    path: "/api/clouds/1/recurring_volume_attachments/1",
    index: "/api/clouds/1/recurring_volume_attachments",
    type: "recurring_volume_attachment",
    plural: "recurring_volume_attachments",
    fields: {
      created_at: "timestamp",
      updated_at: "timestamp",
      name: "string",
      runnable_type: "string",
      storage_type: "string",
      status: "string",
      device: "string",
      device_id: "string",
      size: "string",
      links: "list",
      actions: "list",
    },
    rels: ["self", "cloud", "runnable", "storage"],
  },
  {
    resource: "Network",
    path: "/api/networks/1",
    index: "/api/networks",
    type: "network",
    plural: "networks",
    fields: {
      resource_uid: "string",
      name: "string?",
      description: "string?",
      instance_tenancy: "string",
      cidr_block: "string",
      is_default: "boolean",
      links: "list",
    },
    extras: { actions: "list" },
    rels: ["self", "cloud", "default_route_table"],
    nullField: "description",
  },
  {
    resource: "AlertSpec",
    path: "/api/alert_specs/1",
    index: "/api/alert_specs",
    type: "alert_spec",
    plural: "alert_specs",
    fields: {
      name: "string",
      description: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      duration: "number",
      threshold: "string",
      condition: "string",
      file: "string",
      variable: "string",
      escalation_name: "string?",
      links: "list",
      actions: "list",
    },
    extras: { vote_tag: "string?", vote_type: "string?" },
    rels: ["self", "subject"],
    nullField: "vote_tag",
  },
  {
    resource: "AuditEntry",
    path: "/api/audit_entries/1",
    index:
      "/api/audit_entries?start_date=2025/01/01%2000:00:00%20%2B0000&end_date=2025/02/01%2000:00:00%20%2B0000&limit=5",
    type: "audit_entry",
    plural: "audit_entries",
    fields: {
      summary: "string",
      user_email: "string",
      updated_at: "timestamp",
      detail_size: "number",
      links: "list",
      actions: "list",
    },
    rels: ["self", "auditee", "detail"],
  },
  {
    resource: "StoredScriptAttachment",
    path: "/api/stored_scripts/1/attachments/1",
    index: "/api/stored_scripts/1/attachments",
    type: "stored_script_attachment",
    plural: "stored_script_attachments",
    fields: {
      id: "string",
      filename: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      digest: "string",
      size: "string",
      download_url: "string",
      links: "list",
    },
    rels: ["self", "stored_script"],
  },
  {
    resource: "IpAddressBinding",
    path: "/api/clouds/1/ip_address_bindings/1",
    index: "/api/clouds/1/ip_address_bindings",
    type: "ip_address_binding",
    plural: "ip_address_bindings",
    fields: { created_at: "timestamp", recurring: "boolean", links: "list" },
    extras: { public_port: "number?", private_port: "number?", protocol: "string?" },
    rels: ["self", "instance", "ip_address"],
    nullField: "protocol",
  },
  {
    resource: "Subnet",
    path: "/api/clouds/1/subnets/1",
    index: "/api/clouds/1/subnets",
    type: "subnet",
    plural: "subnets",
    fields: {
      visibility: "string",
      resource_uid: "string",
      name: "string?",
      description: "string?",
      state: "string",
      cidr_block: "string?",
      is_default: "boolean",
      links: "list",
    },
    rels: ["self", "datacenter", "route_table", "effective_route_table"],
    nullField: "description",
  },
  {
    resource: "NetworkGateway",
    path: "/api/network_gateways/1",
    index: "/api/network_gateways",
    type: "network_gateway",
    plural: "network_gateways",
    fields: {
      name: "string",
      description: "string?",
      resource_uid: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      state: "string",
      type: "string",
      links: "list",
      actions: "list",
    },
    rels: ["self", "cloud", "network"],
    nullField: "description",
  },
  {
    resource: "IpAddress",
    path: "/api/clouds/1/ip_addresses/1",
    index: "/api/clouds/1/ip_addresses",
    type: "ip_address",
    plural: "ip_addresses",
    fields: {
      created_at: "timestamp",
      updated_at: "timestamp",
      name: "string",
      address: "string",
      links: "list",
    },
    extras: { domain: "string" },
    rels: ["self", "ip_address_bindings"],
  },
  {
    resource: "Permission",
    path: "/api/permissions/1-admin",
    index: "/api/permissions",
    type: "permission",
    plural: "permissions",
    fields: { role_title: "string", created_at: "timestamp?", links: "list", actions: "list" },
    extras: { id: "string", deleted_at: "timestamp?" },
    rels: ["self", "account", "user"],
  },
  {
    resource: "ResourceGroup",
    path: "/api/resource_groups/1",
    index: "/api/resource_groups",
    type: "resource_group",
    plural: "resource_groups",
    // "not shown beyond these names": the writable fields and the filtered `state`
    fields: { name: "string", description: "string?", state: "string", links: "list" },
    extras: { resource_uid: "string", created_at: "timestamp", updated_at: "timestamp", actions: "list" },
    rels: ["self", "cloud", "deployment"],
    nullField: "description",
  },
  {
    resource: "MonitoringMetric",
    path: "/api/clouds/1/instances/1/monitoring_metrics/cpu-0:cpu-idle",
    index: "/api/clouds/1/instances/1/monitoring_metrics",
    type: "monitoring_metric",
    plural: "monitoring_metrics",
    fields: { plugin: "string", view: "string", graph_href: "string", links: "list", actions: "list" },
    rels: ["self", "data"],
  },
  {
    resource: "Cloud",
    path: "/api/clouds/1",
    index: "/api/clouds",
    type: "cloud",
    plural: "clouds",
    fields: {
      name: "string",
      display_name: "string",
      description: "string",
      cloud_type: "string",
      links: "list",
    },
    rels: [
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
    ],
  },
  {
    resource: "InstanceType",
    path: "/api/clouds/1/instance_types/1",
    index: "/api/clouds/1/instance_types",
    type: "instance_type",
    plural: "instance_types",
    fields: {
      resource_uid: "string",
      name: "string",
      description: "string",
      memory: "nullable",
      cpu_speed: "nullable",
      cpu_count: "nullable",
      cpu_architecture: "nullable",
      local_disks: "nullable",
      local_disk_size: "nullable",
      links: "list",
      actions: "list",
    },
    rels: ["self", "cloud"],
  },
  {
    resource: "VolumeType",
    path: "/api/clouds/1/volume_types/1",
    index: "/api/clouds/1/volume_types",
    type: "volume_type",
    plural: "volume_types",
    fields: {
      name: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      resource_uid: "string",
      size: "string",
      description: "string",
      links: "list",
      actions: "list",
    },
    rels: ["self", "cloud"],
  },
];

beforeAll(async () => {
  // deployment 3: description null (2.1.4)
  await create(h, "/api/deployments", { deployment: { name: "no description" } });
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
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
      cloud_specific_attributes: { instance_tags: ["web"], priority: "5" },
    },
  });
  await create(h, "/api/clouds/1/subnets", {
    subnet: {
      network_href: "/api/networks/1",
      cidr_block: "10.0.1.0/24",
      datacenter_href: "/api/clouds/1/datacenters/1",
    },
  });
  await h.admin.put("/api/clouds/1/subnets/1", {
    json: { subnet: { route_table_href: "/api/route_tables/1" } },
  });
  await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub" } });
  await create(h, "/api/clouds/1/ip_address_bindings", {
    ip_address_binding: {
      instance_href: "/api/clouds/1/instances/1",
      public_ip_address_href: "/api/clouds/1/ip_addresses/1",
    },
  });
  await create(h, "/api/resource_groups", {
    resource_group: { cloud_href: "/api/clouds/1", name: "rg", deployment_href: "/api/deployments/1" },
  });
  await create(h, "/api/clouds/1/recurring_volume_attachments", {
    recurring_volume_attachment: {
      device: "/dev/xvdb",
      runnable_href: "/api/servers/1",
      storage_href: "/api/clouds/1/volumes/1",
    },
  });
});

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

describe("representations (spec 2.2)", () => {
  it.each(ROWS.map((r) => [r.resource, r] as const))(
    "%s: key set, JSON types, rels, media types, XML roots",
    async (_name, row) => {
      const res = await h.admin.get(row.path);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe(`application/vnd.svc.${row.type}+json;charset=utf-8`);
      const rep = res.json<Record<string, unknown>>();
      const expected = { ...row.fields, ...row.extras };
      expect(Object.keys(rep).sort()).toEqual(Object.keys(expected).sort());
      for (const [field, type] of Object.entries(expected))
        expect(
          typeOf(rep[field], type),
          `${row.resource}.${field} = ${JSON.stringify(rep[field])} is ${type}`,
        ).toBe(true);
      const rels = (rep.links as Array<{ rel: string; href: string }>).map((l) => l.rel);
      for (const rel of row.rels) expect(rels, `${row.resource} rel ${rel}`).toContain(rel);
      for (const l of rep.links as Array<{ rel: string; href: string }>) expect(l.href).toMatch(/^\/api\//);
      if ("actions" in rep)
        for (const a of rep.actions as unknown[]) expect(Object.keys(a as object)).toEqual(["rel"]);

      const collection = await h.admin.get(row.index);
      expect(collection.headers.get("content-type")).toBe(
        `application/vnd.svc.${row.type}+json;type=collection;charset=utf-8`,
      );
      expect(collection.json<unknown[]>().length).toBeGreaterThan(0);

      const [bare, query] = row.path.split("?");
      const one = await h.admin.get(`${bare}.xml${query ? `?${query}` : ""}`);
      expect(one.headers.get("content-type")).toBe(`application/vnd.svc.${row.type}+xml;charset=utf-8`);
      const doc = xml.parse(one.text) as Record<string, Record<string, unknown>>;
      expect(Object.keys(doc).filter((k) => k !== "?xml")).toEqual([row.type]);
      if (row.nullField) {
        expect(rep[row.nullField], `${row.resource}.${row.nullField}`).toBeNull();
        expect(one.text).toContain(`<${row.nullField}/>`);
      }
      const [indexBare, indexQuery] = row.index.split("?");
      const many = await h.admin.get(`${indexBare}.xml${indexQuery ? `?${indexQuery}` : ""}`);
      expect(many.headers.get("content-type")).toBe(
        `application/vnd.svc.${row.type}+xml;type=collection;charset=utf-8`,
      );
      const manyDoc = xml.parse(many.text) as Record<string, Record<string, unknown>>;
      expect(Object.keys(manyDoc).filter((k) => k !== "?xml")).toEqual([row.plural]);
      expect(Object.keys(manyDoc[row.plural]!)).toEqual([row.type]);
      // Accept: application/xml gives the same document as the suffix
      const accepted = await h.admin.get(row.path, { headers: { accept: "application/xml" } });
      expect(accepted.text).toBe(one.text);
    },
  );

  it("deployment inputs (views inputs, inputs_2_0) and cloud capabilities (view extended) have their types", async () => {
    const inputs = (await h.admin.get("/api/deployments/1", { query: { view: "inputs_2_0" } })).json<{
      inputs: Array<Record<string, unknown>>;
    }>().inputs;
    expect(inputs.length).toBeGreaterThan(0);
    for (const i of inputs) {
      expect(Object.keys(i).sort()).toEqual(["name", "value"]);
      expect([typeof i.name, typeof i.value]).toEqual(["string", "string"]);
    }
    const cloud = (await h.admin.get("/api/clouds/1", { query: { view: "extended" } })).json<{
      capabilities: Array<Record<string, unknown>>;
    }>();
    expect(cloud.capabilities.map((c) => c.name).sort()).toEqual([
      "supports_networks",
      "supports_route_tables",
      "supports_volume_attachments",
      "supports_volume_snapshots",
    ]);
    for (const c of cloud.capabilities) expect(c.value).toBe("true");
  });

  it("monitoring metric data: start/end timestamps, variables_data of {variable, points: numbers}", async () => {
    const res = await h.admin.get("/api/clouds/1/instances/1/monitoring_metrics/cpu-0:cpu-idle/data", {
      query: { start: "-600", end: "0" },
    });
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.svc.monitoring_metric_data+json;charset=utf-8",
    );
    const data = res.json<Record<string, unknown>>();
    expect(Object.keys(data).sort()).toEqual(["actions", "end", "links", "start", "variables_data"]);
    expect(data.start).toMatch(TIMESTAMP);
    expect(data.end).toMatch(TIMESTAMP);
    for (const v of data.variables_data as Array<Record<string, unknown>>) {
      expect(Object.keys(v).sort()).toEqual(["points", "variable"]);
      expect(typeof v.variable).toBe("string");
      expect((v.points as unknown[]).every((p) => typeof p === "number")).toBe(true);
    }
  });

  it("OAuth token response: access_token string, expires_in integer, token_type bearer", async () => {
    const res = await h.anonymous.post("/api/oauth2/", {
      form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token" },
    });
    const token = res.json<Record<string, unknown>>();
    expect(Object.keys(token).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(typeof token.access_token).toBe("string");
    expect(Number.isInteger(token.expires_in)).toBe(true);
    expect(token.token_type).toBe("bearer");
  });
});
