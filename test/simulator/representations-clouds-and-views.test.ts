import { describe, expect, it } from "vitest";
import {
  describeRepresentations,
  type Row,
  startRepresentationWorld,
  TIMESTAMP,
} from "./representations-helpers.ts";

// Spec 2.2 for clouds, instance and volume types, and the representations beyond the resource table (views, metric data, OAuth token).
const h = await startRepresentationWorld();

const ROWS: Row[] = [
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

describeRepresentations(h, ROWS);

describe("representations (spec 2.2)", () => {
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
