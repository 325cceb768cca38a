import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

// Issue 2 item 4, index by index: every filter the spec lists is accepted with `==` and `<>`,
// a field the spec does not list is a 400 naming it, and a partial filter matches a
// case-insensitive substring where an exact one does not.
const h = await startSimulator();
afterAll(() => h.close());

interface Row {
  index: string;
  /** Extra query parameters the index needs. */
  query?: Record<string, string>;
  exact: string[];
  partial: string[];
  /** A field present in the representation that the spec does not list as a filter. */
  unlisted: string;
  /** A non-matching value for filters restricted to a value list. */
  values?: Record<string, string>;
}

const AUDIT = {
  start_date: "2025/01/01 00:00:00 +0000",
  end_date: "2025/02/01 00:00:00 +0000",
  limit: "100",
};

const ROWS: Row[] = [
  {
    index: "/api/deployments",
    exact: ["resource_group_href"],
    partial: ["description", "name", "server_tag_scope"],
    unlisted: "locked",
  },
  {
    index: "/api/routes",
    exact: ["cloud_href", "network_href", "next_hop_href", "next_hop_type", "route_table_href", "state"],
    partial: ["description", "next_hop_ip", "next_hop_url"],
    unlisted: "destination_cidr_block",
  },
  {
    index: "/api/clouds/1/volumes",
    exact: ["datacenter_href", "deployment_href", "parent_volume_snapshot_href", "resource_uid"],
    partial: ["description", "name"],
    unlisted: "status",
  },
  {
    index: "/api/clouds/1/recurring_volume_attachments",
    exact: ["runnable_href", "storage_href"],
    partial: [],
    unlisted: "device",
  },
  {
    index: "/api/networks",
    exact: ["cidr_block", "cloud_href", "deployment_href", "resource_uid"],
    partial: ["name"],
    unlisted: "instance_tenancy",
  },
  {
    index: "/api/clouds/1/subnets",
    exact: ["datacenter_href", "instance_href", "network_href", "resource_uid", "visibility"],
    partial: ["name"],
    unlisted: "state",
  },
  {
    index: "/api/network_gateways",
    exact: ["cloud_href", "network_href"],
    partial: ["name"],
    unlisted: "type",
  },
  { index: "/api/clouds/1/ip_addresses", exact: ["deployment_href"], partial: ["name"], unlisted: "address" },
  {
    index: "/api/clouds/1/ip_address_bindings",
    exact: ["instance_href", "ip_address_href"],
    partial: [],
    unlisted: "recurring",
  },
  {
    index: "/api/alert_specs",
    exact: ["escalation_name", "subject_href"],
    partial: ["description", "name"],
    unlisted: "condition",
  },
  {
    index: "/api/audit_entries",
    query: AUDIT,
    exact: ["auditee_href", "user_email"],
    partial: [],
    unlisted: "summary",
  },
  { index: "/api/stored_scripts/1/attachments", exact: [], partial: ["filename"], unlisted: "digest" },
  { index: "/api/permissions", exact: ["user_href"], partial: [], unlisted: "role_title" },
  {
    index: "/api/resource_groups",
    exact: ["cloud_href", "state"],
    partial: ["name"],
    unlisted: "description",
    values: { state: "unavalable" },
  },
  {
    index: "/api/clouds/1/instances/1/monitoring_metrics",
    exact: ["plugin", "view"],
    partial: [],
    unlisted: "graph_href",
  },
  { index: "/api/clouds", exact: ["cloud_type"], partial: ["description", "name"], unlisted: "display_name" },
  {
    index: "/api/clouds/1/instance_types",
    exact: ["resource_uid"],
    partial: ["cpu_architecture", "description", "name"],
    unlisted: "memory",
  },
  { index: "/api/clouds/1/volume_types", exact: ["resource_uid"], partial: ["name"], unlisted: "size" },
];

beforeAll(async () => {
  await create(h, "/api/networks", {
    network: {
      cloud_href: "/api/clouds/1",
      cidr_block: "10.0.0.0/16",
      name: "Alpha Net",
      description: "first",
    },
  });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "Edge Gateway", type: "internet" },
  });
  await create(h, "/api/clouds/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24", name: "Front Subnet" },
  });
  await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "Public One" } });
  await create(h, "/api/resource_groups", {
    resource_group: { cloud_href: "/api/clouds/1", name: "Web Group" },
  });
  await create(h, "/api/routes", {
    route: {
      route_table_href: "/api/route_tables/1",
      destination_cidr_block: "10.9.0.0/16",
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.9",
      description: "Peer Route",
    },
  });
});

const get = (row: Row, filter: string[]) => h.admin.get(row.index, { query: { ...row.query, filter } });

describe("filters per index (item 4)", () => {
  it.each(ROWS.map((r) => [r.index, r] as const))("%s", async (_index, row) => {
    for (const field of [...row.exact, ...row.partial]) {
      for (const op of ["==", "<>"]) {
        const res = await get(row, [`${field}${op}${row.values?.[field] ?? "zz-no-such-value"}`]);
        expect(res.status, `${field}${op}: ${res.text}`).toBe(200);
        const list = res.json<unknown[]>();
        if (op === "==") expect(list, `${field}==`).toEqual([]);
      }
    }
    const refused = await get(row, [`${row.unlisted}==x`]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(row.unlisted);

    // partial: a case-swapped inner substring of the first object's value still matches; an
    // exact filter needs the whole value.
    const all = (await get(row, [])).json<Array<Record<string, unknown>>>();
    let partialChecked = 0;
    for (const field of row.partial) {
      const value = all.map((o) => o[field]).find((v): v is string => typeof v === "string" && v.length >= 4);
      if (value === undefined) continue;
      partialChecked++;
      const inner = value.slice(1, -1);
      const swapped = inner === inner.toUpperCase() ? inner.toLowerCase() : inner.toUpperCase();
      const found = (await get(row, [`${field}==${swapped}`])).json<Array<Record<string, unknown>>>();
      expect(
        found.some((o) => o[field] === value),
        `${row.index} ${field}==${swapped} finds '${value}'`,
      ).toBe(true);
      const excluded = (await get(row, [`${field}<>${swapped}`])).json<Array<Record<string, unknown>>>();
      expect(excluded.some((o) => o[field] === value)).toBe(false);
    }
    if (row.partial.length > 0) expect(partialChecked, "partial filters exercised").toBeGreaterThan(0);
    for (const field of row.exact.filter((f) => row.values?.[f] === undefined)) {
      const value = all.map((o) => o[field]).find((v): v is string => typeof v === "string" && v.length >= 4);
      if (value === undefined) continue;
      expect((await get(row, [`${field}==${value}`])).json<unknown[]>().length).toBeGreaterThan(0);
      expect((await get(row, [`${field}==${value.slice(1)}`])).json<unknown[]>()).toEqual([]);
    }
  });
});
