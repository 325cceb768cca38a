import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { startFileSimulator } from "./file-simulator.ts";
import type { Harness } from "./harness.ts";
import { create } from "./net-helpers.ts";

// Spec 2.2, resource by resource (spread over the representations-*.test.ts files): the key
// set of a representation (the table's fields plus the attributes the real media type adds,
// nothing else; conformance.test.ts holds every resource to the reference data), the JSON type
// of each field, the rels of `links`, the media type, and the XML root elements (2.1.1).

/**
 * `timestamp` is `YYYY/MM/DD HH:MM:SS +0000`; a trailing `?` also allows null (2.1.4: null
 * or empty values are null); `nullable` is any scalar or null (instance type figures).
 */
export type FieldType =
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

export interface Row {
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

export const TIMESTAMP = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \+0000$/;

export function typeOf(value: unknown, expected: FieldType): boolean {
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

/** Starts this file's simulator (stopped after it) with an object carrying every rel of each row. */
export async function startRepresentationWorld(): Promise<Harness> {
  const h = await startFileSimulator();
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
  return h;
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

/** Checks each row against the object under its `path` and its collection, in JSON and in XML. */
export function describeRepresentations(h: Harness, rows: Row[]): void {
  describe("representations (spec 2.2)", () => {
    it.each(rows.map((r) => [r.resource, r] as const))(
      "%s: key set, JSON types, rels, media types, XML roots",
      async (_name, row) => {
        await expectRepresentation(h, row);
      },
    );
  });
}

async function expectRepresentation(h: Harness, row: Row): Promise<void> {
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
}
