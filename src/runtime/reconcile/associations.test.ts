import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import type { EventSink } from "../client/index.ts";
import { blockersOf, OwnerIndex, ReferenceIndex, referenceKeys } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { getCondition, managedSpec, objectKey, ref } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/**
 * After-create associations (Reference.afterCreate): a net whose default table is a Table that
 * names the net back. The net is created and Ready without the table, and sets it once the table
 * is Ready; neither is a ReferenceCycle; deleted together, the net goes first (taking the table along).
 */

const NS = "team-a";
const key = (kind: string, name: string) => objectKey(kind, NS, name);

describe("ReferenceIndex with after-create associations", () => {
  const account = "Account/team-a/default";
  function graph(): ReferenceIndex {
    const idx = new ReferenceIndex();
    idx.set(key("Net", "n"), [account], [key("Table", "t")]);
    idx.set(key("Table", "t"), [account, key("Net", "n")]);
    return idx;
  }

  it("wakes and holds back like any reference, but closes no cycle and orders nothing", () => {
    const idx = graph();
    expect(idx.dependents(key("Table", "t"))).toEqual([key("Net", "n")]);
    expect(idx.targets(key("Net", "n"))).toEqual([account, key("Table", "t")]);
    expect(idx.reaches(key("Net", "n"), key("Table", "t"))).toBe(true);
    expect(idx.cycleThrough(key("Net", "n"))).toBeUndefined();
    expect(idx.cycleThrough(key("Table", "t"))).toBeUndefined();
    expect(idx.inDependencyOrder([key("Table", "t"), key("Net", "n")])).toEqual([
      key("Net", "n"),
      key("Table", "t"),
    ]);
    expect(idx.kindLevel("Net", () => false)).toBe(2);
    expect(idx.kindLevel("Table", () => false)).toBe(1);
  });

  it("a target named at create time too is a create-time dependency: the cycle is one", () => {
    const idx = graph();
    idx.set(key("Net", "n"), [account, key("Table", "t")], [key("Table", "t")]);
    expect(idx.cycleThrough(key("Net", "n"))).toEqual([key("Net", "n"), key("Table", "t"), key("Net", "n")]);
    // Back to an association only: no cycle again (the change of kind of edge is not skipped as unchanged).
    idx.set(key("Net", "n"), [account], [key("Table", "t")]);
    expect(idx.cycleThrough(key("Net", "n"))).toBeUndefined();
  });

  it("referenceKeys splits a spec's references into create-time targets and associations", () => {
    expect(
      referenceKeys(NS, "default", [
        { field: "deploymentRef", kind: "Deployment", name: "web" },
        { field: "defaultTableRef", kind: "Table", name: "t", afterCreate: true },
      ]),
    ).toEqual({ targets: [account, key("Deployment", "web")], after: [key("Table", "t")] });
  });

  it("deleting both at once: the table waits for the net (whose deletion takes it along), the net for the table's other dependents", () => {
    const kube = new FakeKube();
    const idx = graph();
    idx.set(key("Item", "i"), [account, key("Table", "t")]);
    const deleting = { deletionTimestamp: "2026-01-01T00:00:00Z" };
    for (const [kind, name] of [
      ["Net", "n"],
      ["Table", "t"],
      ["Item", "i"],
    ] as const)
      kube.put(kind, { metadata: { name, namespace: NS, ...deleting } });
    expect(blockersOf(key("Table", "t"), idx, kube).map((b) => b.name)).toEqual(["i", "n"]);
    // The net waits for what the table holds besides the net, not for the table itself.
    expect(blockersOf(key("Net", "n"), idx, kube)).toEqual([
      { kind: "Table", name: "t", deleting: true, waitingFor: ["Item i"] },
    ]);
    kube.delete("Item", NS, "i");
    expect(blockersOf(key("Net", "n"), idx, kube)).toEqual([]);
    expect(blockersOf(key("Table", "t"), idx, kube).map((b) => b.name)).toEqual(["n"]);
    // The net staying holds the table back too: someone has to point it elsewhere.
    kube.put("Net", { metadata: { name: "n", namespace: NS } });
    expect(blockersOf(key("Table", "t"), idx, kube)).toEqual([
      { kind: "Net", name: "n", deleting: false, waitingFor: [] },
    ]);
  });
});

/** A toy service of nets, each with a settable default table. */
class NetService {
  readonly nets = new Map<string, { href: string; table: string | null }>();
  readonly calls: string[] = [];
  private next = 1;
  show(href: string) {
    this.calls.push(`show ${href}`);
    const n = this.nets.get(href);
    return n && { ...n };
  }
  create() {
    const href = `/api/nets/${this.next++}`;
    this.calls.push(`create ${href}`);
    this.nets.set(href, { href, table: "/api/tables/default" });
    return href;
  }
  update(href: string, table: string) {
    this.calls.push(`update ${href} ${table}`);
    this.nets.get(href)!.table = table;
  }
}

type NetSpec = { defaultTableRef?: { name: string } };
const netKind: ManagedKind<NetSpec, { table?: string }, { href: string; table: string | null }, NetService> =
  {
    kind: "Net",
    plural: "nets",
    singular: "net",
    shortNames: [],
    description: "test",
    schema: managedSpec({ defaultTableRef: ref("Table").optional() }) as never,
    references: (s) =>
      s.defaultTableRef
        ? [{ field: "defaultTableRef", kind: "Table", name: s.defaultTableRef.name, afterCreate: true }]
        : [],
    desired: (_s, ctx) => ({ table: ctx.refs.defaultTableRef?.href }),
    observe: async (c, href) => c.show(href),
    lookup: async () => [],
    hrefOf: (o) => o.href,
    create: async (c) => c.create(),
    update: async (c, href, d) => c.update(href, d.table!),
    delete: async () => {},
    diff: (d, o) =>
      d.table === undefined || d.table === o.table
        ? []
        : [{ field: "defaultTableRef", desired: d.table, observed: o.table }],
    atProvider: (o) => ({ table: o.table }),
  };

let kube: FakeKube;
let service: NetService;
let refs: ReferenceIndex;
let events: string[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new NetService();
  refs = new ReferenceIndex();
  events = [];
  const sink: EventSink = { emit: (_o, _k, _t, reason, message) => events.push(`${reason}: ${message}`) };
  reconciler = new ManagedReconciler(netKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs,
    owners: new OwnerIndex(),
    events: sink,
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
});

function table(ready: boolean, href = "/api/tables/7") {
  kube.put("Table", {
    metadata: { name: "t", namespace: NS },
    spec: { netRef: { name: "n" } },
    status: {
      href,
      conditions: [
        {
          type: "Ready",
          status: ready ? "True" : "False",
          reason: ready ? "Available" : "DependencyNotReady",
          message: "",
          lastTransitionTime: "2026-01-01T00:00:00Z",
        },
      ],
    },
  });
  // The table names the net at create time, as a route table names its network.
  refs.set(key("Table", "t"), ["Account/team-a/default", key("Net", "n")]);
}

const net = () => kube.get("Net", NS, "n")!;
const ready = () => getCondition(net().status?.conditions, "Ready");

describe("a reconcile with an after-create association", () => {
  it("creates and is Ready without it, naming what it waits for; applies it once the target is Ready (Updated)", async () => {
    table(false);
    kube.put("Net", { metadata: { name: "n", namespace: NS }, spec: { defaultTableRef: { name: "t" } } });
    expect((await reconciler.reconcile(NS, "n")).outcome).toBe("ready");
    expect(ready()).toMatchObject({
      status: "True",
      reason: "Available",
      message: "not applied yet: spec.defaultTableRef: Table t (not Ready); applied once it is Ready",
    });
    expect(getCondition(net().status?.conditions, "Stalled")?.status).toBe("False");
    expect(service.calls).toEqual(["create /api/nets/1", "show /api/nets/1"]);
    // The table's own reference back to the net is no cycle, and the net wakes when the table is Ready.
    expect(refs.cycleThrough(key("Table", "t"))).toBeUndefined();
    expect(refs.dependents(key("Table", "t"))).toEqual([key("Net", "n")]);

    table(true);
    service.calls.length = 0;
    expect((await reconciler.reconcile(NS, "n")).outcome).toBe("ready");
    expect(service.calls).toEqual([
      "show /api/nets/1",
      "update /api/nets/1 /api/tables/7",
      "show /api/nets/1",
    ]);
    expect(ready()).toMatchObject({ status: "True", reason: "Available", message: "" });
    // Applying it is no drift: the service had not changed.
    expect(events.at(-1)).toBe("Updated: updated defaultTableRef");

    // A change made in the service afterwards is drift.
    service.nets.get("/api/nets/1")!.table = "/api/tables/other";
    await reconciler.reconcile(NS, "n");
    expect(events.at(-1)).toBe("DriftCorrected: put back defaultTableRef");
    expect(service.nets.get("/api/nets/1")!.table).toBe("/api/tables/7");
  });
});
