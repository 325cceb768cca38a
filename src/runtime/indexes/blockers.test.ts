import { describe, expect, it } from "vitest";
import { FakeKube } from "../testing/index.ts";
import { type Blocker, blockedMessage, blockersOf, deletingTargets, needsAction } from "./blockers.ts";
import { ReferenceIndex } from "./references.ts";

const NS = "demo";
const key = (kind: string, name: string) => `${kind}/${NS}/${name}`;

function world() {
  const kube = new FakeKube();
  const refs = new ReferenceIndex();
  const put = (
    kind: string,
    name: string,
    targets: string[],
    extra: { deleting?: boolean; ready?: object } = {},
  ) => {
    kube.put(kind, {
      metadata: {
        name,
        namespace: NS,
        finalizers: ["cloud.svc.io/finalizer"],
        ...(extra.deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
      },
      spec: {},
      status: extra.ready ? { conditions: [extra.ready as never] } : {},
    });
    refs.set(key(kind, name), targets);
  };
  return { kube, refs, put };
}

describe("blockersOf", () => {
  it("a dependent being deleted that this object references in turn (a cycle) does not hold it back", () => {
    const { kube, refs, put } = world();
    put("Deployment", "web", [key("ResourceGroup", "rg")], { deleting: true });
    put("ResourceGroup", "rg", [key("Deployment", "web")], { deleting: true });
    expect(blockersOf(key("Deployment", "web"), refs, kube)).toEqual([]);
    expect(blockersOf(key("ResourceGroup", "rg"), refs, kube)).toEqual([]);
    // One of them not being deleted still holds the other back: someone has to act.
    put("ResourceGroup", "rg", [key("Deployment", "web")]);
    expect(blockersOf(key("Deployment", "web"), refs, kube).map((b) => b.name)).toEqual(["rg"]);
  });

  it("a cycle member being deleted holds this one back while it waits for others outside the cycle", () => {
    const { kube, refs, put } = world();
    put("Deployment", "web", [key("ResourceGroup", "rg")], { deleting: true });
    put("ResourceGroup", "rg", [key("Deployment", "web")], { deleting: true });
    put("Network", "main", [key("Deployment", "web")], { deleting: true });
    expect(blockersOf(key("ResourceGroup", "rg"), refs, kube)).toEqual([
      { kind: "Deployment", name: "web", deleting: true, waitingFor: ["Network main"] },
    ]);
    // The other way round nothing waits: web waits for its network anyway, not for rg.
    expect(blockersOf(key("Deployment", "web"), refs, kube).map((b) => b.name)).toEqual(["main"]);
    // A longer cycle: its members are no "others" of each other.
    put("Volume", "c", [key("Deployment", "web")], { deleting: true });
    put("ResourceGroup", "rg", [key("Volume", "c")], { deleting: true });
    put("Deployment", "web", [key("ResourceGroup", "rg")], { deleting: true });
    kube.delete("Network", NS, "main");
    refs.remove(key("Network", "main"));
    for (const k of [key("Deployment", "web"), key("ResourceGroup", "rg"), key("Volume", "c")])
      expect(blockersOf(k, refs, kube), k).toEqual([]);
  });

  it("lists the dependents that still exist, and for those being deleted, what they wait for", () => {
    const { kube, refs, put } = world();
    const account = key("Account", "default");
    put("Deployment", "web", [account], { deleting: true });
    put("Network", "main", [account, key("Deployment", "web")], { deleting: true });
    put("Subnet", "main-a", [account, key("Network", "main")], { deleting: true });
    put("Volume", "data", [account], { deleting: false });
    refs.set(key("Subnet", "gone"), [account]); // indexed but no longer in the cache
    expect(blockersOf(account, refs, kube)).toEqual([
      { kind: "Deployment", name: "web", deleting: true, waitingFor: ["Network main"] },
      { kind: "Network", name: "main", deleting: true, waitingFor: ["Subnet main-a"] },
      { kind: "Subnet", name: "main-a", deleting: true, waitingFor: [] },
      { kind: "Volume", name: "data", deleting: false, waitingFor: [] },
    ]);
  });

  it("a dependent being deleted that waits for nothing in the cluster says what its Ready condition says", () => {
    const { kube, refs, put } = world();
    const ready = { type: "Ready", status: "False", reason: "Deleting", message: "the volume is in use" };
    put("Volume", "data", [key("Deployment", "web")], { deleting: true, ready });
    const blocked = { type: "Ready", status: "False", reason: "DeletionBlocked", message: "x" };
    put("Volume", "logs", [key("Deployment", "web")], { deleting: true, ready: blocked });
    expect(blockersOf(key("Deployment", "web"), refs, kube)).toEqual([
      { kind: "Volume", name: "data", deleting: true, waitingFor: [], state: "the volume is in use" },
      { kind: "Volume", name: "logs", deleting: true, waitingFor: [] },
    ]);
  });
});

describe("blockersOf: references that cannot change", () => {
  it("marks those not being deleted that name the object through a field that cannot change", () => {
    const { kube, refs, put } = world();
    const network = key("Network", "main");
    put("Subnet", "web", [network]);
    put("Subnet", "old", [network], { deleting: true });
    put("RouteTable", "rt", [network]);
    const asked: unknown[] = [];
    const fixed = (dependent: { kind: string }, target: { kind: string; name: string }) => {
      asked.push([dependent.kind, target]);
      return dependent.kind === "Subnet" ? ["networkRef"] : [];
    };
    expect(blockersOf(network, refs, kube, fixed)).toEqual([
      { kind: "RouteTable", name: "rt", deleting: false, waitingFor: [] },
      { kind: "Subnet", name: "old", deleting: true, waitingFor: [] },
      { kind: "Subnet", name: "web", deleting: false, waitingFor: [], fixed: ["networkRef"] },
    ]);
    // Only about those someone must act on, and with the object they name.
    expect(asked).toEqual([
      ["RouteTable", { kind: "Network", namespace: NS, name: "main" }],
      ["Subnet", { kind: "Network", namespace: NS, name: "main" }],
    ]);
  });
});

describe("deletingTargets", () => {
  it("what a resource references that is being deleted too (it waits for this one)", () => {
    const { kube, refs, put } = world();
    put("Deployment", "web", [], { deleting: true });
    put("Network", "main", [key("Deployment", "web")]);
    put("Subnet", "main-a", [key("Account", "default"), key("Network", "main"), key("Deployment", "web")]);
    expect(deletingTargets(key("Subnet", "main-a"), refs, kube)).toEqual([key("Deployment", "web")]);
  });
});

describe("blockedMessage", () => {
  const going = (name: string, waitingFor: string[] = [], state?: string): Blocker => ({
    kind: "Network",
    name,
    deleting: true,
    waitingFor,
    ...(state ? { state } : {}),
  });
  const staying = (name: string): Blocker => ({ kind: "Subnet", name, deleting: false, waitingFor: [] });

  it.each([
    {
      reason: "every blocker is being deleted: nobody has to act; each says what it waits for",
      blockers: [going("main", ["Subnet main-a"]), going("edge"), going("old", [], "retrying: 503")],
      message:
        "waiting for 3 dependents being deleted: Network main (deleting: waiting for Subnet main-a), " +
        "Network edge (deleting), Network old (deleting: retrying: 503)",
    },
    {
      reason: "one blocker being deleted: singular",
      blockers: [going("main")],
      message: "waiting for 1 dependent being deleted: Network main (deleting)",
    },
    {
      reason: "blockers not being deleted: what the user must do",
      blockers: [staying("a"), staying("b")],
      message:
        "still used by 2 resources not being deleted: Subnet a, Subnet b; delete them or change their spec.accountRef",
    },
    {
      reason: "one not being deleted, one being deleted: the action first, then what else it waits for",
      blockers: [staying("a"), going("main")],
      message:
        "still used by 1 resource not being deleted: Subnet a; delete it or change its spec.accountRef; " +
        "also waiting for 1 dependent being deleted: Network main (deleting)",
    },
  ])("$reason", ({ blockers, message }) => {
    expect(blockedMessage(blockers, "spec.accountRef")).toBe(message);
  });

  const fixed = (kind: string, name: string, fields = ["networkRef"]): Blocker => ({
    kind,
    name,
    deleting: false,
    waitingFor: [],
    fixed: fields,
  });
  it.each([
    {
      reason: "references that cannot change: delete, nothing else works",
      blockers: [fixed("Subnet", "web")],
      message:
        "still used by 1 resource not being deleted: Subnet web; delete it (its spec.networkRef cannot be changed)",
    },
    {
      reason: "several kinds and fields that cannot change: each field named once",
      blockers: [
        fixed("IpAddress", "ip"),
        fixed("Subnet", "web"),
        fixed("Volume", "data", ["deploymentRef"]),
      ],
      message:
        "still used by 3 resources not being deleted: IpAddress ip, Subnet web, Volume data; " +
        "delete them (their spec.networkRef and spec.deploymentRef cannot be changed)",
    },
    {
      reason: "both sorts: each group by name, with what works for it",
      blockers: [
        { kind: "RouteTable", name: "rt", deleting: false, waitingFor: [] },
        fixed("Subnet", "a"),
        fixed("Subnet", "b"),
        going("edge"),
      ],
      message:
        "still used by 3 resources not being deleted: RouteTable rt, Subnet a, Subnet b; " +
        "delete Subnet a, Subnet b (their spec.networkRef cannot be changed); " +
        "delete RouteTable rt or change its references to Network main; " +
        "also waiting for 1 dependent being deleted: Network edge (deleting)",
    },
  ])("$reason", ({ blockers, message }) => {
    expect(blockedMessage(blockers, "references to Network main")).toBe(message);
  });

  it("someone has to act only while a blocker is not being deleted", () => {
    expect(needsAction([going("main")])).toBe(false);
    expect(needsAction([going("main"), staying("a")])).toBe(true);
  });

  it("names at most ten blockers (three of what each waits for) and counts the rest", () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      going(`n${i}`, i === 0 ? ["Subnet a", "Subnet b", "Subnet c", "Subnet d", "Subnet e"] : []),
    );
    const message = blockedMessage(many, "spec.accountRef");
    expect(message).toMatch(/^waiting for 12 dependents being deleted: /);
    expect(message).toContain("Network n0 (deleting: waiting for Subnet a, Subnet b, Subnet c and 2 more)");
    expect(message).toContain("Network n9 (deleting) and 2 more");
    expect(message).not.toContain("n10");
  });

  it("clips a long state", () => {
    const message = blockedMessage([going("main", [], "x".repeat(500))], "spec.accountRef");
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/\.\.\.\)$/);
  });
});
