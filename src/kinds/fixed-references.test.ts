import { describe, expect, it } from "vitest";
import { schemaOf } from "../runtime/crd/index.ts";
import { fixedReferences, isFixedField } from "../runtime/sdk/index.ts";
import { managedKinds } from "./index.ts";

/**
 * Which references a DeletionBlocked message may tell the user to change: those the CRD lets
 * change. A reference is fixed exactly where the kind's CRD has a transition rule refusing its
 * change, whatever the kind's table says.
 */

interface Rule {
  rule: string;
}

/** The spec fields the CRD's transition rules keep from changing. */
function crdImmutable(spec: Record<string, unknown>): Set<string> {
  const rules = (spec["x-kubernetes-validations"] ?? []) as Rule[];
  return new Set(rules.flatMap((r) => /^has\(oldSelf\.(\w+)\) ==/.exec(r.rule)?.[1] ?? []));
}

describe("references that cannot change", () => {
  it.each(managedKinds.map((k) => [k.kind, k] as const))(
    "%s: fixed exactly where its CRD refuses a change",
    (_, kind) => {
      const spec = schemaOf(kind.schema) as { properties: Record<string, unknown> };
      const refs = Object.keys(spec.properties).filter((f) => f.endsWith("Ref") && f !== "accountRef");
      const immutable = crdImmutable(spec as Record<string, unknown>);
      for (const field of refs) expect(isFixedField(kind, field), field).toBe(immutable.has(field));
    },
  );

  it("a Subnet's and an IpAddress's networkRef and a Volume's deploymentRef are fixed; a RouteTable's is not (it is replaced)", () => {
    const kinds = new Map(managedKinds.map((k) => [k.kind, k]));
    const network = { kind: "Network", name: "main" };
    const subnet = {
      accountRef: { name: "default" },
      networkRef: { name: "main" },
      cidrBlock: "10.0.1.0/24",
    };
    expect(fixedReferences(kinds.get("Subnet")!, subnet, network)).toEqual(["networkRef"]);
    expect(fixedReferences(kinds.get("Subnet")!, subnet, { kind: "Network", name: "other" })).toEqual([]);
    const ip = { cloudHref: "/api/clouds/1", networkRef: { name: "main" } };
    expect(fixedReferences(kinds.get("IpAddress")!, ip, network)).toEqual(["networkRef"]);
    const volume = { cloudHref: "/api/clouds/1", size: 10, deploymentRef: { name: "web" } };
    expect(fixedReferences(kinds.get("Volume")!, volume, { kind: "Deployment", name: "web" })).toEqual([
      "deploymentRef",
    ]);
    expect(fixedReferences(kinds.get("RouteTable")!, { networkRef: { name: "main" } }, network)).toEqual([]);
    // A spec the schema refuses says nothing.
    expect(fixedReferences(kinds.get("Subnet")!, { networkRef: "main" }, network)).toEqual([]);
  });
});
