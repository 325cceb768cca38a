import { describe, expect, it } from "vitest";
import { schemaOf } from "../runtime/crd/index.ts";
import { managedKinds } from "./index.ts";
import { admitter } from "./shared/admission.testing.ts";

/**
 * Every IPv4 block and address of every kind is checked by a CEL rule whose message says what is
 * wrong (a pattern's refusal would quote its regular expression), and a block keeps its host bits
 * as written, as the service does, which its description says.
 */

interface Field {
  kind: string;
  field: string;
  schema: { pattern?: string; description?: string; "x-kubernetes-validations"?: { message: string }[] };
}

/** The spec fields named for a CIDR block or an IP address, in every kind's CRD. */
const fields: Field[] = managedKinds.flatMap((k) => {
  const props = (schemaOf(k.schema) as { properties: Record<string, Field["schema"]> }).properties;
  return Object.entries(props)
    .filter(([name]) => /cidr|Ip$/i.test(name))
    .map(([field, schema]) => ({ kind: k.kind, field, schema }));
});
const cidrs = fields.filter((f) => /cidr/i.test(f.field));
/** A spec of each kind its CRD admits: only the field under test is wrong. */
const ROUTE = {
  routeTableHref: "/api/route_tables/1",
  destinationCidrBlock: "0.0.0.0/0",
  nextHopType: "ip_string",
};
const VALID: Record<string, Record<string, unknown>> = {
  Network: { cloudHref: "/api/clouds/1" },
  Subnet: { networkHref: "/api/networks/1", cidrBlock: "10.0.1.0/24" },
  Route: { ...ROUTE, nextHopIp: "10.0.0.1" },
};

describe("IPv4 block and address fields", () => {
  it("are the ones known", () => {
    expect(fields.map((f) => `${f.kind}.${f.field}`)).toEqual([
      "Network.cidrBlock",
      "Subnet.cidrBlock",
      "Route.destinationCidrBlock",
      "Route.nextHopIp",
    ]);
  });

  it.each(cidrs.map((f) => [`${f.kind}.${f.field}`, f] as const))(
    "%s: refused in words, host bits kept and said",
    (_, f) => {
      expect(f.schema.pattern).toBeUndefined();
      const admit = admitter(managedKinds.find((k) => k.kind === f.kind)!);
      const causes = (value: string) =>
        admit({ ...VALID[f.kind], [f.field]: value }).filter((c) => c.field === `spec.${f.field}`);
      for (const bad of ["10.10.0.0", "10.0.0.300/16", "10.0.0.0/08", "010.0.0.0/8", "2001:db8::/32"])
        expect(causes(bad), bad).toEqual([
          {
            reason: "FieldValueInvalid",
            message: 'Invalid value: "string": must be an IPv4 CIDR block such as 10.0.0.0/16',
            field: `spec.${f.field}`,
          },
        ]);
      expect(causes("10.10.3.5/24")).toEqual([]);
      expect(f.schema.description).toContain("Host bits are taken as written");
    },
  );

  it("a next hop's address is refused in words too", () => {
    const route = managedKinds.find((k) => k.kind === "Route")!;
    const causes = admitter(route)({ ...ROUTE, nextHopIp: "10.0.0.256" }).filter(
      (c) => c.field === "spec.nextHopIp",
    );
    expect(causes.map((c) => c.message)).toEqual([
      'Invalid value: "string": must be an IPv4 address such as 10.0.0.1',
    ]);
  });
});
