import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { subnetKind } from "./kind.ts";

const admitSubnet = admitter(subnetKind);
const base = { networkRef: { name: "main" }, cidrBlock: "10.10.1.0/24" };

describe("Subnet CRD admission (CEL)", () => {
  it("accepts a subnet by network ref or href, and an empty routeTableHref", () => {
    expect(admitSubnet(base)).toEqual([]);
    expect(
      admitSubnet({ networkHref: "/api/networks/1", cidrBlock: "10.10.1.0/24", routeTableHref: "" }),
    ).toEqual([]);
    expect(
      admitSubnet({
        ...base,
        datacenterHref: "/api/clouds/1/datacenters/1",
        routeTableHref: "/api/route_tables/1",
      }),
    ).toEqual([]);
  });

  const rejected: { reason: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
    {
      reason: "no network",
      spec: { cidrBlock: "10.10.1.0/24" },
      field: "spec.networkRef",
      message: /exactly one of networkRef, networkHref/,
    },
    {
      reason: "both network forms",
      spec: { ...base, networkHref: "/api/networks/1" },
      field: "spec.networkRef",
      message: /exactly one of networkRef, networkHref/,
    },
    {
      reason: "no CIDR",
      spec: { networkRef: { name: "main" } },
      field: "spec.cidrBlock",
      message: /Required value/,
    },
    {
      reason: "both route table forms",
      spec: { ...base, routeTableRef: { name: "public" }, routeTableHref: "/api/route_tables/1" },
      field: "spec.routeTableRef",
      message: /at most one of routeTableRef, routeTableHref may be set/,
    },
    {
      reason: "a route table that is not an href",
      spec: { ...base, routeTableHref: "rtb-1" },
      field: "spec.routeTableHref",
      message: /should match/,
    },
  ];
  for (const c of rejected) {
    it(`rejects ${c.reason}, naming ${c.field}`, () => {
      const causes = admitSubnet(c.spec);
      expect(causes.find((x) => x.field === c.field)?.message, JSON.stringify(causes)).toMatch(c.message);
    });
  }

  it("keeps the network and datacenter immutable, the CIDR and route table mutable", () => {
    const old = { ...base, datacenterHref: "/api/clouds/1/datacenters/1" };
    expect(admitSubnet({ ...old, networkRef: { name: "other" } }, old).map((c) => c.field)).toContain(
      "spec.networkRef",
    );
    expect(
      admitSubnet({ ...old, datacenterHref: "/api/clouds/1/datacenters/2" }, old).map((c) => c.field),
    ).toContain("spec.datacenterHref");
    expect(admitSubnet({ ...old, cidrBlock: "10.10.2.0/24", routeTableHref: "" }, old)).toEqual([]);
    expect(admitSubnet({ ...old, routeTableRef: { name: "private" } }, old)).toEqual([]);
  });
});
