import { describe, expect, it } from "vitest";
import { networkKind } from "../kinds/network/kind.ts";
import { admitObject } from "./admission.ts";

const network = (spec: Record<string, unknown>) => ({
  apiVersion: "cloud.svc.io/v1alpha1",
  kind: "Network",
  metadata: { name: "n", namespace: "ns" },
  spec,
});

describe("admitObject", () => {
  it("defaults the spec as the apiserver does", () => {
    const a = admitObject(networkKind, network({ cloudHref: "/api/clouds/1" }));
    expect(a.problems).toEqual([]);
    expect(a.object.spec).toMatchObject({
      managementPolicy: "Manage",
      deletionPolicy: "Delete",
      accountRef: { name: "default" },
    });
  });

  it("refuses what the CRD's schema and CEL rules refuse, and unknown fields, naming each field", () => {
    const a = admitObject(
      networkKind,
      network({ cloudHref: "/api/clouds/1", cloud: { name: "x" }, cidrBlock: "nope", color: 1 }),
    );
    expect(a.problems).toEqual([
      "spec.color: unknown field (kubectl apply refuses it)",
      'spec.cloudHref: Invalid value: "object": exactly one of cloudHref, cloud must be set',
      'spec.cidrBlock: Invalid value: "string": must be an IPv4 CIDR block such as 10.0.0.0/16',
    ]);
    const cel = admitObject(networkKind, network({ cloudHref: "/api/clouds/1", cloud: { name: "x" } }));
    expect(cel.problems).toEqual([
      'spec.cloudHref: Invalid value: "object": exactly one of cloudHref, cloud must be set',
    ]);
  });

  it("with the object the cluster holds, the transition rules: an immutable field changed", () => {
    const old = network({ cloudHref: "/api/clouds/1", cidrBlock: "10.0.0.0/16" });
    const a = admitObject(
      networkKind,
      network({ cloudHref: "/api/clouds/1", cidrBlock: "10.1.0.0/16" }),
      old,
    );
    expect(a.problems).toEqual([
      'spec.cidrBlock: Invalid value: "object": cidrBlock is immutable: create a new resource to change it',
    ]);
  });
});
