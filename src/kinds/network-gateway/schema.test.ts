import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { networkGatewayKind } from "./kind.ts";

const admitGateway = admitter(networkGatewayKind);
const base = { cloudHref: "/api/clouds/1", type: "internet" };

describe("NetworkGateway CRD admission (CEL)", () => {
  it("accepts a gateway with or without a network", () => {
    expect(admitGateway(base)).toEqual([]);
    expect(admitGateway({ ...base, networkRef: { name: "main" } })).toEqual([]);
    expect(
      admitGateway({ cloud: { name: "EC2 us-east-1" }, type: "vpn", networkHref: "/api/networks/1" }),
    ).toEqual([]);
  });

  const rejected: { reason: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
    {
      reason: "no type",
      spec: { cloudHref: "/api/clouds/1" },
      field: "spec.type",
      message: /Required value/,
    },
    {
      reason: "an unknown type",
      spec: { ...base, type: "nat" },
      field: "spec.type",
      message: /Unsupported value/,
    },
    {
      reason: "no cloud",
      spec: { type: "vpn" },
      field: "spec.cloudHref",
      message: /exactly one of cloudHref, cloud/,
    },
    {
      reason: "both network forms",
      spec: { ...base, networkRef: { name: "a" }, networkHref: "/api/networks/1" },
      field: "spec.networkRef",
      message: /at most one of networkRef, networkHref/,
    },
  ];
  for (const c of rejected) {
    it(`rejects ${c.reason}, naming ${c.field}`, () => {
      const causes = admitGateway(c.spec);
      expect(causes.find((x) => x.field === c.field)?.message, JSON.stringify(causes)).toMatch(c.message);
    });
  }

  it("keeps the type immutable, the attachment mutable", () => {
    const causes = admitGateway({ ...base, type: "vpn" }, base);
    expect(causes.find((c) => c.field === "spec.type")?.message).toMatch(/type is immutable/);
    expect(admitGateway({ ...base, networkRef: { name: "main" } }, base)).toEqual([]);
    expect(admitGateway(base, { ...base, networkRef: { name: "main" } })).toEqual([]);
  });
});
