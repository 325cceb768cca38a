import { describe, expect, it } from "vitest";
import * as z from "zod";
import { accountKey, OwnerIndex, ReferenceIndex, SiblingIndex } from "../indexes/index.ts";
import type { AnyManagedKind, ManagedObject } from "../sdk/index.ts";
import { managedSpec, ref } from "../sdk/index.ts";
import { FakeKube } from "../testing/index.ts";
import { CONTENTS_LOOK_MS, CONTENTS_LOOK_PENDING_MS, InformerEvents } from "./operator-events.ts";
import type { WorkQueue } from "./queue.ts";

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

/** The object as its reconcile leaves it once the service object at `href` is Ready. */
const readyAs = (o: ManagedObject, href: string): ManagedObject => ({
  ...o,
  status: {
    href,
    conditions: [{ type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" }],
  },
});

/**
 * InformerEvents over fresh indexes, with a queue that records what it is asked: `key`,
 * `key urgent` or `key in N ms`.
 */
function eventsFor(kinds: AnyManagedKind[], store = new FakeKube(), siblings = new SiblingIndex()) {
  const queued: string[] = [];
  const events = new InformerEvents({
    kinds,
    store,
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    siblings,
    accounts: { checkAhead: () => {}, parkIfPending: () => false },
    queue: () =>
      ({
        add: (key: string, urgent?: boolean) => void queued.push(urgent ? `${key} urgent` : key),
        addAfter: (key: string, ms: number) => void queued.push(`${key} in ${ms} ms`),
      }) as unknown as WorkQueue,
    checkAhead: () => false,
  });
  return { events, queued };
}

describe("InformerEvents", () => {
  it("a reference that closes a cycle queues every member of it, so each reports the cycle at once", () => {
    const { events, queued } = eventsFor([widget]);
    events.added("Widget", object("a", "b"));
    events.added("Widget", object("b", "c"));
    expect(queued).toEqual(["Widget/ns/a", "Widget/ns/b"]);
    events.added("Widget", object("c", "a"));
    expect(queued.slice(2).sort()).toEqual(["Widget/ns/a", "Widget/ns/b", "Widget/ns/c"]);
  });

  it("a dependent turning Ready wakes the target that lists its contents (a route table its route), not others", () => {
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
    const { events, queued } = eventsFor([widget, box, item]);
    const i: ManagedObject = {
      metadata: { name: "i", namespace: "ns", generation: 1 },
      spec: { boxRef: { name: "b" }, partRef: { name: "w" } },
    };
    events.added("Item", i);
    queued.length = 0;
    events.updated("Item", readyAs(i, "/api/items/1"), i);
    // Soon, not at once: its other contents turning Ready about now share the look.
    expect(queued).toEqual([`Box/ns/b in ${CONTENTS_LOOK_MS} ms`]);
  });

  it("siblings waiting for one (a user's other roles, its observer grant) are woken urgent by its Ready", () => {
    const grant = {
      ...widget,
      kind: "Grant",
      schema: managedSpec({ role: z.string() }),
      references: () => [],
      siblings: () => "user-2",
      leadsSiblings: (s: { role?: string }) => s.role === "observer",
    } as unknown as AnyManagedKind;
    const { events, queued } = eventsFor([grant]);
    const observer: ManagedObject = {
      metadata: { name: "o", namespace: "ns", generation: 1 },
      spec: { role: "observer" },
    };
    const actor: ManagedObject = {
      metadata: { name: "a", namespace: "ns", generation: 1 },
      spec: { role: "actor" },
    };
    events.added("Grant", observer);
    events.added("Grant", actor);
    queued.length = 0;
    events.updated("Grant", readyAs(observer, "/api/permissions/2-observer"), observer);
    expect(queued).toEqual(["Grant/ns/a urgent"]);
  });

  it("while another content is on its way the look waits for it (its Ready brings the look forward)", () => {
    const box = { ...widget, kind: "Box", contents: () => [] } as unknown as AnyManagedKind;
    const item = {
      ...widget,
      kind: "Item",
      schema: managedSpec({ boxRef: ref("Box") }),
      references: (s: { boxRef: { name: string } }) => [
        { field: "boxRef", kind: "Box", name: s.boxRef.name },
      ],
    } as unknown as AnyManagedKind;
    const store = new FakeKube();
    const { events, queued } = eventsFor([box, item], store);
    const pending = (name: string): ManagedObject => ({
      metadata: { name, namespace: "ns", generation: 1 },
      spec: { boxRef: { name: "b" } },
    });
    const ready = (o: ManagedObject) => readyAs(o, `/api/items/${o.metadata.name}`);
    for (const name of ["subnet", "route"]) events.added("Item", store.put("Item", pending(name)));
    const looks = () => queued.filter((q) => q.startsWith("Box/"));
    events.updated("Item", store.put("Item", ready(pending("subnet"))), pending("subnet"));
    expect(looks()).toEqual([`Box/ns/b in ${CONTENTS_LOOK_PENDING_MS} ms`]);
    events.updated("Item", store.put("Item", ready(pending("route"))), pending("route"));
    expect(looks().at(-1)).toBe(`Box/ns/b in ${CONTENTS_LOOK_MS} ms`);
  });
});

const account = (ready: "True" | "False", reason: string): ManagedObject => ({
  metadata: { name: "default", namespace: "a", generation: 1 },
  spec: {},
  status: { conditions: [{ type: "Ready", status: ready, reason, message: "", lastTransitionTime: "" }] },
});

describe("InformerEvents.enqueueOrPark: a new resource that would only park is not reconciled", () => {
  function setup(kinds: AnyManagedKind[] = [widget], options: { accountPending?: boolean } = {}) {
    const store = new FakeKube();
    const queued: string[] = [];
    const later: [string, number][] = [];
    const parked: string[] = [];
    const events = new InformerEvents({
      kinds,
      store,
      refs: new ReferenceIndex(),
      owners: new OwnerIndex(),
      siblings: new SiblingIndex(),
      accounts: { checkAhead: () => {}, parkIfPending: () => options.accountPending === true },
      queue: () =>
        ({
          add: (key: string) => void queued.push(key),
          addAfter: (key: string, ms: number) => void later.push([key, ms]),
        }) as unknown as WorkQueue,
      checkAhead: () => false,
      parkAhead: (key) => {
        parked.push(key);
        return 60_000;
      },
    });
    const add = (o: ManagedObject) => events.added("Widget", store.put("Widget", o));
    return { store, events, queued, later, parked, add };
  }
  const readyStatus = {
    href: "/api/widgets/1",
    observedGeneration: 1,
    conditions: [
      { type: "Ready", status: "True" as const, reason: "Available", message: "", lastTransitionTime: "" },
    ],
  };

  it("queues it for when parking would end, and its reference's Ready wakes it first", () => {
    const { store, events, queued, later, parked, add } = setup();
    add(object("part"));
    add(object("a", "part"));
    // The part has no status yet (on its way): the dependent waits without a reconcile.
    expect(queued).toEqual(["Widget/ns/part"]);
    expect(later).toEqual([["Widget/ns/a", 60_000]]);
    expect(parked).toEqual(["Widget/ns/a"]);
    const part = store.get("Widget", "ns", "part")!;
    // As an informer does: the cache holds the new version before the handler is called.
    events.updated("Widget", store.put("Widget", { ...part, status: readyStatus }), part);
    expect(queued).toEqual(["Widget/ns/part", "Widget/ns/a"]);
  });

  it("a reference's Ready does not wake it while another one it needs is still on its way", () => {
    const pair = {
      ...widget,
      kind: "Pair",
      schema: managedSpec({ leftRef: ref("Widget"), rightRef: ref("Widget") }),
      references: (s: { leftRef: { name: string }; rightRef: { name: string } }) => [
        { field: "leftRef", kind: "Widget", name: s.leftRef.name },
        { field: "rightRef", kind: "Widget", name: s.rightRef.name },
      ],
    } as unknown as AnyManagedKind;
    const { store, events, queued, later, add } = setup([widget, pair]);
    add(object("left"));
    add(object("right"));
    const p: ManagedObject = {
      metadata: { name: "p", namespace: "ns", generation: 1 },
      spec: { leftRef: { name: "left" }, rightRef: { name: "right" } },
    };
    events.added("Pair", store.put("Pair", p));
    const left = store.get("Widget", "ns", "left")!;
    events.updated("Widget", store.put("Widget", { ...left, status: readyStatus }), left);
    expect(queued).toEqual(["Widget/ns/left", "Widget/ns/right"]);
    expect(later.map(([key]) => key)).toEqual(["Pair/ns/p", "Pair/ns/p"]);
    const right = store.get("Widget", "ns", "right")!;
    events.updated("Widget", store.put("Widget", { ...right, status: readyStatus }), right);
    expect(queued).toEqual(["Widget/ns/left", "Widget/ns/right", "Pair/ns/p"]);
  });

  it("queues it at once when its reconcile has something to do or say", () => {
    const { queued, later, add } = setup();
    add({ ...object("part"), status: readyStatus });
    add(object("a", "part")); // its reference Ready: it creates
    add(object("b", "absent")); // its reference missing: it says so
    expect(queued).toEqual(["Widget/ns/part", "Widget/ns/a", "Widget/ns/b"]);
    expect(later).toEqual([]);
  });

  it("queues the members of a reference cycle at once: each waits for itself, and says so", () => {
    const { queued, later, add } = setup();
    add(object("a", "b"));
    add(object("b", "a"));
    expect(queued.filter((k) => k === "Widget/ns/b")).toEqual(["Widget/ns/b"]);
    expect(queued).toContain("Widget/ns/a");
    expect(later).toEqual([]);
  });

  it("leaves it to its Account's wake while the Account's first check runs", () => {
    const { queued, later, add } = setup([widget], { accountPending: true });
    add(object("part"));
    add(object("a", "part"));
    expect([queued, later]).toEqual([[], []]);
  });
});

describe("InformerEvents on an Account's Ready", () => {
  function setup() {
    const refs = new ReferenceIndex();
    refs.set("Deployment/a/web", [accountKey("a", "default")]);
    refs.set("Network/a/main", [accountKey("a", "default")]);
    const queued: string[] = [];
    const events = new InformerEvents({
      kinds: [],
      store: new FakeKube(),
      refs,
      owners: new OwnerIndex(),
      siblings: new SiblingIndex(),
      accounts: { checkAhead: () => {}, parkIfPending: () => false },
      queue: () => ({ add: (key: string) => queued.push(key) }) as unknown as WorkQueue,
      checkAhead: () => false,
    });
    return { events, queued };
  }

  it("wakes its resources when its credentials stop working, so they say so at once", () => {
    const { events, queued } = setup();
    events.updated("Account", account("False", "CredentialsInvalid"), account("True", "Available"));
    expect(queued.sort()).toEqual(["Deployment/a/web", "Network/a/main"]);
  });

  it("leaves their wake on its turning Ready to the credentials check, and wakes nothing for a status write that changes nothing of that", () => {
    const { events, queued } = setup();
    // The check that made it Ready woke them already (onVerified, in dependency order): a second
    // wake would run those at work again, on a cache without their own writes yet.
    events.updated("Account", account("True", "Available"), account("False", "CredentialsInvalid"));
    expect(queued).toEqual([]);
    events.updated("Account", account("False", "SecretNotFound"), account("False", "CredentialsInvalid"));
    expect(queued).toEqual([]);
  });
});
