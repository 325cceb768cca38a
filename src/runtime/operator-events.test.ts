import { describe, expect, it } from "vitest";
import { FakeKube } from "./fake-kube.ts";
import type { AnyManagedKind, ManagedObject } from "./kind.ts";
import { InformerEvents } from "./operator-events.ts";
import { OwnerIndex } from "./owners.ts";
import type { WorkQueue } from "./queue.ts";
import { ReferenceIndex } from "./references.ts";
import { SiblingIndex } from "./siblings.ts";
import { managedSpec, ref } from "./spec.ts";

const widget = {
  kind: "Widget",
  schema: managedSpec({ partRef: ref("Widget").optional() }),
  references: (s: { partRef?: { name: string } }) =>
    s.partRef ? [{ field: "partRef", kind: "Widget", name: s.partRef.name }] : [],
} as unknown as AnyManagedKind;

const object = (name: string, part?: string): ManagedObject => ({
  metadata: { name, namespace: "ns", generation: 1 },
  spec: part ? { partRef: { name: part } } : {},
});

describe("InformerEvents", () => {
  it("a reference that closes a cycle queues every member of it, so each reports the cycle at once", () => {
    const queued: string[] = [];
    const events = new InformerEvents({
      kinds: [widget],
      store: new FakeKube(),
      refs: new ReferenceIndex(),
      owners: new OwnerIndex(),
      siblings: new SiblingIndex(),
      accounts: { checkAhead: () => {}, parkIfPending: () => false },
      queue: () => ({ add: (key: string) => void queued.push(key) }) as unknown as WorkQueue,
      checkAhead: () => false,
    });
    events.added("Widget", object("a", "b"));
    events.added("Widget", object("b", "c"));
    expect(queued).toEqual(["Widget/ns/a", "Widget/ns/b"]);
    events.added("Widget", object("c", "a"));
    expect(queued.slice(2).sort()).toEqual(["Widget/ns/a", "Widget/ns/b", "Widget/ns/c"]);
  });

  it("a dependent turning Ready wakes the target that lists its contents (a route table its route), not others", () => {
    const queued: string[] = [];
    const box = { ...widget, kind: "Box", contents: () => [] } as unknown as AnyManagedKind;
    const item = {
      ...widget,
      kind: "Item",
      schema: managedSpec({ boxRef: ref("Box"), partRef: ref("Widget") }),
      references: (s: { boxRef: { name: string }; partRef: { name: string } }) => [
        { field: "boxRef", kind: "Box", name: s.boxRef.name },
        { field: "partRef", kind: "Widget", name: s.partRef.name },
      ],
    } as unknown as AnyManagedKind;
    const events = new InformerEvents({
      kinds: [widget, box, item],
      store: new FakeKube(),
      refs: new ReferenceIndex(),
      owners: new OwnerIndex(),
      siblings: new SiblingIndex(),
      accounts: { checkAhead: () => {}, parkIfPending: () => false },
      queue: () => ({ add: (key: string) => void queued.push(key) }) as unknown as WorkQueue,
      checkAhead: () => false,
    });
    const i: ManagedObject = {
      metadata: { name: "i", namespace: "ns", generation: 1 },
      spec: { boxRef: { name: "b" }, partRef: { name: "w" } },
    };
    events.added("Item", i);
    queued.length = 0;
    const ready: ManagedObject = {
      ...i,
      status: {
        href: "/api/items/1",
        conditions: [
          { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
        ],
      },
    };
    events.updated("Item", ready, i);
    expect(queued).toEqual(["Box/ns/b"]);
  });
});
