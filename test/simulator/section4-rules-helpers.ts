import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, type RequestOptions, SimClient, startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

// One row per parameter rule of spec section 4 (4.1 to 4.19), in spec order, spread over the
// section4-rules-*.test.ts files by section: the call is refused with its status, the
// plain-text body names the parameter (or the rule), and the store is unchanged. The
// per-resource test files hold more cases; these tables are the audit that no rule of the spec
// is left without one. (`user_email` needs the instance role: a 403 with a user lacking that
// role, in audit-entries-rejections.test.ts.)

export type Row = [
  rule: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  options: RequestOptions,
  status: 400 | 422,
  names: string,
];

export const WINDOW = {
  start_date: "2025/01/01 00:00:00 +0000",
  end_date: "2025/02/01 00:00:00 +0000",
  limit: "10",
};
export const ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "10.9.0.0/16",
  next_hop_type: "ip_string",
  next_hop_ip: "10.0.0.9",
};
export const ALERT = {
  name: "disk",
  file: "df/df-root",
  variable: "free",
  condition: "<",
  threshold: "10",
  duration: "5",
  escalation_name: "critical",
};
export const RVA = {
  device: "/dev/xvdb",
  runnable_href: "/api/servers/1",
  storage_href: "/api/clouds/1/volumes/1",
};
export const BIND = "/api/clouds/1/ip_address_bindings";
export const IP = "/api/clouds/1/ip_addresses/1";
export const METRICS = "/api/clouds/1/instances/1/monitoring_metrics";
export const noFile = () => {
  const form = new FormData();
  form.append("stored_script_attachment[filename]", "a.sh");
  return form;
};
export const noFilename = () => {
  const form = new FormData();
  form.append("stored_script_attachment[content]", new Blob(["x"]), "a.sh");
  return form;
};
export const login = (fields: Record<string, unknown>) => ({
  form: { email: "admin@example.com", password: "password", account_href: "/api/accounts/1", ...fields },
});
export const token = (fields: Record<string, unknown>) => ({
  form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token", ...fields },
});

/** Starts a simulator for this file with the objects the rows name, and checks every row. */
export function describeSection4Rules(rows: Row[]): void {
  let h: Harness;
  beforeAll(async () => {
    h = await startSimulator();
    // network 1 with subnet 1, gateway 1, route 1, IP address 1, resource group 1
    await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
    await create(h, "/api/clouds/1/subnets", {
      subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
    });
    await create(h, "/api/network_gateways", {
      network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
    });
    await create(h, "/api/routes", { route: ROUTE });
    await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub" } });
    await create(h, "/api/resource_groups", { resource_group: { cloud_href: "/api/clouds/1", name: "rg" } });
  });
  afterAll(() => h.close());

  describe("every parameter rule of spec section 4", () => {
    it.each(rows)(
      "%s: %s %s is refused and changes nothing",
      async (_rule, method, path, options, status, names) => {
        const client = path === "/api/session" || path === "/api/oauth2/" ? new SimClient(h.url) : h.admin;
        const res = await h.expectUnchanged(() => client.request(method, path, options));
        expect([res.status, res.text], res.text).toEqual([status, expect.stringContaining(names)]);
        if (status === 400 && !names.startsWith("X-API")) expect(res.text).toMatch(/^ParameterError: /);
        expect(res.headers.get("content-type") ?? "text/plain").toMatch(/^(text\/plain|application\/json)/);
      },
    );
  });
}
