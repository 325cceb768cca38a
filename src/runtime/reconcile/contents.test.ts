import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import type { EventSink } from "../client/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, getCondition, managedSpec, objectKey } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/**
 * ManagedKind.contents: a box holds items; the items custom resources manage are theirs, the
 * others are reported (Ready, UnmanagedContents, a Warning event when the list changes), never deleted.
 */

const NS = "team-a";
type Box = { href: string; items: string[] };

class BoxService {
  readonly boxes = new Map<string, Box>();
  readonly calls: string[] = [];
  show(href: string) {
    this.calls.push(`show ${href}`);
    const b = this.boxes.get(href);
    return b && { ...b, items: [...b.items] };
  }
}

const boxKind: ManagedKind<object, object, Box, BoxService> = {
  kind: "Box",
  plural: "boxes",
  singular: "box",
  shortNames: [],
  description: "test",
  schema: managedSpec({}) as never,
  references: () => [],
  desired: () => ({}),
  observe: async (c, href) => c.show(href),
  lookup: async () => [],
  hrefOf: (o) => o.href,
  create: async () => {
    throw new Error("not in this test");
  },
  update: async () => {},
  delete: async () => {},
  diff: () => [],
  atProvider: (o) => ({ items: o.items }),
  contents: (o) => o.items.map((href) => ({ href, label: `item ${href.split("/").at(-1)}` })),
};

let kube: FakeKube;
let service: BoxService;
let owners: OwnerIndex;
let events: { type: string; reason: string; message: string }[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new BoxService();
  owners = new OwnerIndex();
  kube.onChange = (kind, o, old) => {
    if (o) owners.set(kind, o);
    else if (old) owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name));
  };
  events = [];
  const sink: EventSink = {
    emit: (_o, _k, type, reason, message) => {
      if (reason !== "Adopted") events.push({ type, reason, message });
    },
  };
  reconciler = new ManagedReconciler(boxKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners,
    events: sink,
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
  service.boxes.set("/api/boxes/1", {
    href: "/api/boxes/1",
    items: ["/api/boxes/1/items/1", "/api/boxes/1/items/2"],
  });
  kube.put("Box", {
    metadata: { name: "b", namespace: NS, annotations: { [Annotation.href]: "/api/boxes/1" } },
    spec: {},
  });
});

/** An Item custom resource managing `href` (its status and annotation name it). */
function item(name: string, href: string, namespace = NS) {
  kube.put("Item", {
    metadata: { name, namespace, annotations: { [Annotation.href]: href } },
    spec: {},
    status: { href },
  });
}

const ready = () => getCondition(kube.get("Box", NS, "b")!.status?.conditions, "Ready");

describe("contents no custom resource manages", () => {
  it("are named in Ready (still True) with one Warning event per change, and are never touched", async () => {
    item("one", "/api/boxes/1/items/1");
    await reconciler.reconcile(NS, "b");
    expect(ready()).toMatchObject({
      status: "True",
      reason: "UnmanagedContents",
      message:
        "the service shows 1 object in it that no custom resource manages, left as it is: item 2 (/api/boxes/1/items/2)",
    });
    expect(events).toEqual([{ type: "Warning", reason: "UnmanagedContents", message: ready()!.message }]);
    expect(service.calls).toEqual(["show /api/boxes/1"]);

    await reconciler.reconcile(NS, "b");
    expect(events).toHaveLength(1);

    // Another one by hand: said again, naming both.
    service.boxes.get("/api/boxes/1")!.items.push("/api/boxes/1/items/3");
    await reconciler.reconcile(NS, "b");
    expect(ready()?.message).toMatch(/shows 2 objects in it .*: item 2 \(.*\), item 3 \(/);
    expect(events).toHaveLength(2);

    // Once custom resources manage them (any namespace of the account), nothing is reported.
    item("two", "/api/boxes/1/items/2", "team-b");
    item("three", "/api/boxes/1/items/3");
    await reconciler.reconcile(NS, "b");
    expect(ready()).toMatchObject({ status: "True", reason: "Available", message: "" });
    expect(events).toHaveLength(2);
  });
});
