import { describe, expect, it } from "vitest";
import {
  DEPENDENTS_IN_ARRAY,
  describeCycle,
  PENDING_KIND_WEIGHT,
  ReferenceIndex,
  withDependent,
  withoutDependent,
} from "./references.ts";

const account = "Account/ns/default";

/** One unit of every kind, referencing each other as the mixed set does. */
function unitGraph(): ReferenceIndex {
  const idx = new ReferenceIndex();
  idx.set("Deployment/ns/d", [account]);
  idx.set("Network/ns/n", [account, "Deployment/ns/d"]);
  idx.set("NetworkGateway/ns/g", [account, "Network/ns/n"]);
  idx.set("Route/ns/r", [account, "Network/ns/n", "NetworkGateway/ns/g"]);
  idx.set("Volume/ns/v", [account, "Deployment/ns/d"]);
  idx.set("RecurringVolumeAttachment/ns/a", [account, "Volume/ns/v"]);
  idx.set("Subnet/ns/s", [account, "Network/ns/n"]);
  return idx;
}

describe("ReferenceIndex", () => {
  it("answers dependents of a target and replaces a dependent's references", () => {
    const idx = new ReferenceIndex();
    idx.set("Subnet/ns/a", ["Network/ns/main", "Account/ns/default"]);
    idx.set("Subnet/ns/b", ["Network/ns/main"]);
    expect(idx.dependents("Network/ns/main")).toEqual(["Subnet/ns/a", "Subnet/ns/b"]);
    idx.set("Subnet/ns/a", ["Network/ns/other"]);
    expect(idx.dependents("Network/ns/main")).toEqual(["Subnet/ns/b"]);
    expect(idx.dependents("Account/ns/default")).toEqual([]);
    expect(idx.targets("Subnet/ns/a")).toEqual(["Network/ns/other"]);
    idx.remove("Subnet/ns/b");
    expect(idx.dependents("Network/ns/main")).toEqual([]);
  });

  it("keeps unchanged references as they are and drops duplicates", () => {
    const idx = new ReferenceIndex();
    idx.set("Route/ns/r", ["Network/ns/n", "NetworkGateway/ns/g", "Network/ns/n"]);
    expect(idx.targets("Route/ns/r")).toEqual(["Network/ns/n", "NetworkGateway/ns/g"]);
    idx.set("Route/ns/r", ["Network/ns/n", "NetworkGateway/ns/g"]);
    expect(idx.dependents("NetworkGateway/ns/g")).toEqual(["Route/ns/r"]);
    idx.set("Route/ns/r", []);
    expect(idx.targets("Route/ns/r")).toEqual([]);
    expect(idx.dependents("Network/ns/n")).toEqual([]);
  });

  it("orders keys by dependency depth, then by the chain of dependents after them (a cycle does not loop)", () => {
    const idx = unitGraph();
    idx.set("Aardvark/ns/x", [account, "Network/ns/n"]);
    expect(idx.inDependencyOrder(idx.dependents(account))).toEqual([
      "Deployment/ns/d",
      "Network/ns/n", // two levels wait for it
      "Volume/ns/v", // one
      "NetworkGateway/ns/g", // the Route waits for it: before the leaves of its level
      "Aardvark/ns/x",
      "RecurringVolumeAttachment/ns/a",
      "Subnet/ns/s", // nothing waits for it
      "Route/ns/r",
    ]);
    // Among equals, what the service keeps pending after its create goes first.
    const slow = (k: string) => k.startsWith("Subnet/");
    expect(
      idx.inDependencyOrder(["RecurringVolumeAttachment/ns/a", "Subnet/ns/s", "Aardvark/ns/x"], slow),
    ).toEqual(["Subnet/ns/s", "Aardvark/ns/x", "RecurringVolumeAttachment/ns/a"]);
    idx.set("Widget/ns/x", ["Widget/ns/y"]);
    idx.set("Widget/ns/y", ["Widget/ns/x"]);
    expect(idx.inDependencyOrder(["Widget/ns/y", "Widget/ns/x"]).sort()).toEqual([
      "Widget/ns/x",
      "Widget/ns/y",
    ]);
  });

  it("ranks kinds by the chains of references after them, a pending kind weighing more, learning new kinds", () => {
    const idx = unitGraph();
    const pending = (k: string) => k === "Subnet";
    const level = (k: string) => idx.kindLevel(k, pending);
    expect(level("Route")).toBe(1);
    expect(level("RecurringVolumeAttachment")).toBe(1);
    expect(level("NetworkGateway")).toBe(2);
    expect(level("Volume")).toBe(2);
    // The pending Subnet goes before the Gateway and the Volume, though nothing waits for it.
    expect(level("Subnet")).toBe(PENDING_KIND_WEIGHT);
    expect(level("Subnet")).toBeGreaterThan(level("NetworkGateway"));
    expect(level("Network")).toBe(PENDING_KIND_WEIGHT + 1);
    expect(level("Deployment")).toBe(PENDING_KIND_WEIGHT + 2);
    expect(level("Account")).toBe(PENDING_KIND_WEIGHT + 3);
    expect(level("Unknown")).toBe(1);
    // Objects that wait for one another (a user's observer grant first): one step more.
    expect(idx.kindLevel("Permission", pending, (k) => k === "Permission")).toBe(2);
    // A kind seen later lengthens the chains through it; the levels are worked out again.
    idx.set("Firewall/ns/f", ["Route/ns/r"]);
    idx.set("Rule/ns/x", ["Firewall/ns/f"]);
    expect(level("Route")).toBe(3);
    expect(level("NetworkGateway")).toBe(4);
    // A cycle of kinds does not loop.
    idx.set("Widget/ns/x", ["Gadget/ns/y"]);
    idx.set("Gadget/ns/y", ["Widget/ns/x"]);
    expect(level("Widget")).toBeGreaterThan(0);
  });

  describe("reference cycles", () => {
    const cases: { reason: string; edges: [string, string[]][]; from: string; want?: string }[] = [
      { reason: "the mixed set's unit has none", edges: [], from: "Route/ns/r" },
      {
        reason: "a Deployment and a ResourceGroup naming each other",
        edges: [
          ["Deployment/ns/web", [account, "ResourceGroup/ns/rg"]],
          ["ResourceGroup/ns/rg", [account, "Deployment/ns/web"]],
        ],
        from: "Deployment/ns/web",
        want: "Deployment web -> ResourceGroup rg -> Deployment web",
      },
      {
        reason: "three kinds, found from any member, shortest way back",
        edges: [
          ["Widget/ns/a", ["Gadget/ns/b"]],
          ["Gadget/ns/b", ["Gizmo/ns/c", "Widget/ns/z"]],
          ["Gizmo/ns/c", ["Widget/ns/a"]],
        ],
        from: "Gizmo/ns/c",
        want: "Gizmo c -> Widget a -> Gadget b -> Gizmo c",
      },
      {
        reason: "an object naming itself",
        edges: [["Widget/ns/a", ["Widget/ns/a"]]],
        from: "Widget/ns/a",
        want: "Widget a -> Widget a",
      },
      {
        reason: "an object that only leads into a cycle is not on it",
        edges: [
          ["Widget/ns/a", ["Gadget/ns/b"]],
          ["Gadget/ns/b", ["Gizmo/ns/c"]],
          ["Gizmo/ns/c", ["Gadget/ns/b"]],
        ],
        from: "Widget/ns/a",
      },
    ];
    it.each(cases)("$reason", ({ edges, from, want }) => {
      const idx = unitGraph();
      for (const [dependent, targets] of edges) idx.set(dependent, targets);
      const cycle = idx.cycleThrough(from);
      expect(cycle && describeCycle(cycle)).toEqual(want);
    });

    it("reaches follows references transitively; a removed reference breaks the cycle", () => {
      const idx = unitGraph();
      expect(idx.reaches("Route/ns/r", "Deployment/ns/d")).toBe(true);
      expect(idx.reaches("Deployment/ns/d", "Route/ns/r")).toBe(false);
      idx.set("Deployment/ns/d", [account, "Route/ns/r"]);
      expect(idx.cycleThrough("Network/ns/n")).toEqual([
        "Network/ns/n",
        "Deployment/ns/d",
        "Route/ns/r",
        "Network/ns/n",
      ]);
      idx.set("Deployment/ns/d", [account]);
      expect(idx.cycleThrough("Network/ns/n")).toBeUndefined();
    });
  });
});

describe("a target's dependents as the index keeps them", () => {
  it("one as the string, a few in an exact-size array, more in a Set; back down as they go", () => {
    let d = withDependent("A/ns/1", "A/ns/1");
    expect(d).toBe("A/ns/1");
    d = withDependent(d, "A/ns/2");
    expect(d).toEqual(["A/ns/1", "A/ns/2"]);
    expect(withDependent(d, "A/ns/2")).toBe(d);
    for (let i = 3; i <= DEPENDENTS_IN_ARRAY; i++) d = withDependent(d, `A/ns/${i}`);
    expect(Array.isArray(d) && d.length).toBe(DEPENDENTS_IN_ARRAY);
    d = withDependent(d, "A/ns/9");
    expect(d).toEqual(new Set(Array.from({ length: 9 }, (_, i) => `A/ns/${i + 1}`)));
    let left: ReturnType<typeof withoutDependent> = ["A/ns/1", "A/ns/2"];
    left = withoutDependent(left, "A/ns/3");
    expect(left).toEqual(["A/ns/1", "A/ns/2"]);
    left = withoutDependent(left!, "A/ns/1");
    expect(left).toBe("A/ns/2");
    expect(withoutDependent(left!, "A/ns/2")).toBeUndefined();
    expect(withoutDependent(new Set(["A/ns/1"]), "A/ns/1")).toBeUndefined();
  });

  it("answers and forgets dependents whichever way they are kept", () => {
    const refs = new ReferenceIndex();
    const many = Array.from({ length: DEPENDENTS_IN_ARRAY + 2 }, (_, i) => `Subnet/ns/s${i}`);
    for (const d of many) refs.set(d, ["Network/ns/net"]);
    expect(refs.dependents("Network/ns/net")).toEqual([...many].sort());
    for (const d of many.slice(1)) refs.remove(d);
    expect(refs.dependents("Network/ns/net")).toEqual([many[0]]);
    refs.remove(many[0]!);
    expect(refs.dependents("Network/ns/net")).toEqual([]);
    expect(refs.footprint()["refs.dependentsOf"]!.entries).toBe(0);
  });
});
