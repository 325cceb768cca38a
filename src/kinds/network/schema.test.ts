import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { networkKind } from "./kind.ts";

const admitNetwork = admitter(networkKind);
const base = { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16" };

describe("Network CRD admission (CEL)", () => {
  const accepted: { reason: string; spec: Record<string, unknown> }[] = [
    { reason: "cloud by href", spec: base },
    { reason: "cloud by name", spec: { cloud: { name: "EC2 us-east-1" } } },
    { reason: "deployment by ref", spec: { ...base, deploymentRef: { name: "web" } } },
    { reason: "default route table by ref", spec: { ...base, defaultRouteTableRef: { name: "private" } } },
    {
      reason: "every field",
      spec: {
        ...base,
        name: "n",
        description: "d",
        instanceTenancy: "dedicated",
        deploymentHref: "/api/deployments/1",
        routeTableHref: "/api/route_tables/1",
      },
    },
  ];
  for (const c of accepted) it(`accepts ${c.reason}`, () => expect(admitNetwork(c.spec)).toEqual([]));

  const rejected: { reason: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
    {
      reason: "no cloud",
      spec: { cidrBlock: "10.0.0.0/16" },
      field: "spec.cloudHref",
      message: /exactly one of cloudHref, cloud/,
    },
    {
      reason: "both clouds",
      spec: { ...base, cloud: { name: "x" } },
      field: "spec.cloudHref",
      message: /exactly one of cloudHref, cloud/,
    },
    {
      reason: "both deployment forms",
      spec: { ...base, deploymentRef: { name: "w" }, deploymentHref: "/api/deployments/1" },
      field: "spec.deploymentRef",
      message: /at most one of deploymentRef, deploymentHref/,
    },
    {
      reason: "both default route table forms",
      spec: { ...base, defaultRouteTableRef: { name: "private" }, routeTableHref: "/api/route_tables/1" },
      field: "spec.defaultRouteTableRef",
      message: /at most one of defaultRouteTableRef, routeTableHref may be set/,
    },
    {
      reason: "bad tenancy",
      spec: { ...base, instanceTenancy: "shared" },
      field: "spec.instanceTenancy",
      message: /Unsupported value/,
    },
    {
      reason: "bad CIDR, in words (never the regular expression of a pattern)",
      spec: { ...base, cidrBlock: "10.10.0.0" },
      field: "spec.cidrBlock",
      message: /^Invalid value: "string": must be an IPv4 CIDR block such as 10\.0\.0\.0\/16$/,
    },
  ];
  for (const c of rejected) {
    it(`rejects ${c.reason}, naming ${c.field}`, () => {
      const causes = admitNetwork(c.spec);
      expect(causes.map((x) => x.field)).toContain(c.field);
      expect(causes.find((x) => x.field === c.field)?.message).toMatch(c.message);
    });
  }

  const immutable: { field: string; from: Record<string, unknown>; to: Record<string, unknown> }[] = [
    { field: "cidrBlock", from: base, to: { ...base, cidrBlock: "10.20.0.0/16" } },
    { field: "cidrBlock", from: base, to: { cloudHref: "/api/clouds/1" } },
    { field: "cloudHref", from: base, to: { ...base, cloudHref: "/api/clouds/3" } },
    { field: "instanceTenancy", from: base, to: { ...base, instanceTenancy: "dedicated" } },
    { field: "cloud", from: { cloud: { name: "a" } }, to: { cloud: { name: "b" } } },
  ];
  for (const c of immutable) {
    it(`rejects a change of ${c.field} on update`, () => {
      const causes = admitNetwork(c.to, c.from);
      expect(causes.map((x) => x.field)).toContain(`spec.${c.field}`);
      expect(causes.find((x) => x.field === `spec.${c.field}`)?.message).toMatch(/is immutable/);
    });
  }

  it("accepts an update of the mutable fields", () => {
    expect(
      admitNetwork({ ...base, name: "new", description: "x", routeTableHref: "/api/route_tables/2" }, base),
    ).toEqual([]);
  });
});
