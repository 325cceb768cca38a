import { describe, expect, it } from "vitest";
import type { Item } from "../inventory/index.ts";
import { managedKinds } from "../kinds/index.ts";
import { networkKind } from "../kinds/network/kind.ts";
import { routeKind } from "../kinds/route/kind.ts";
import { hrefsIn, shapeOf, specFromService } from "./spec.ts";

describe("shapeOf", () => {
  it("reads a kind's references from the kind itself: which kind each xRef names", () => {
    expect(shapeOf(routeKind).refs).toEqual([
      { field: "networkRef", kind: "Network", afterCreate: false },
      { field: "routeTableRef", kind: "RouteTable", afterCreate: false },
      { field: "nextHopGatewayRef", kind: "NetworkGateway", afterCreate: false },
    ]);
  });

  it("marks an after-create association (a network's default route table), which closes no cycle", () => {
    expect(shapeOf(networkKind).refs).toContainEqual({
      field: "defaultRouteTableRef",
      kind: "RouteTable",
      afterCreate: true,
    });
  });

  it("finds every kind's fields, in its schema's order, and references to registered kinds only", () => {
    const names = new Set(managedKinds.map((k) => k.kind));
    for (const kind of managedKinds) {
      const shape = shapeOf(kind);
      expect(shape.fields, kind.kind).toContain("managementPolicy");
      for (const r of shape.refs) expect(names, `${kind.kind}.${r.field}`).toContain(r.kind);
    }
  });
});

describe("specFromService", () => {
  const item = (at: Record<string, unknown>): Item => ({
    kind: networkKind,
    href: "/api/networks/1",
    scope: "",
    observed: {},
    at,
  });

  it("takes what atProvider shows under spec field names, in the schema's order; read-only members stay out", () => {
    const spec = specFromService(
      item({
        resourceUid: "vpc-1",
        isDefault: false,
        name: "main",
        cloudHref: "/api/clouds/1",
        cidrBlock: "10.0.0.0/16",
      }),
      "main",
    );
    expect(Object.keys(spec)).toEqual(["cloudHref", "name", "cidrBlock"]);
  });

  it("leaves out empty lists and maps (they stay unmanaged) and never the management fields", () => {
    const spec = specFromService(
      item({ name: "n", description: "", managementPolicy: "Manage", tags: [] }),
      "n",
    );
    expect(spec).toEqual({ name: "n", description: "" });
  });
});

describe("hrefsIn", () => {
  it("collects the service hrefs a value holds, sorted", () => {
    expect(hrefsIn({ a: "/api/b", b: ["/api/a", "x"], c: { d: "/api/c", e: 1 } })).toEqual([
      "/api/a",
      "/api/b",
      "/api/c",
    ]);
  });
});
