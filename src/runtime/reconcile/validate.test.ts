import pino from "pino";
import { describe, expect, it } from "vitest";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { getCondition, managedSpec, ref } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

type Spec = { partRef?: { name: string }; accountRef: { name: string } };

/** A kind whose objects may name another one of their kind; every service call is recorded. */
function world() {
  const calls: string[] = [];
  const kind: ManagedKind<Spec, object, { href: string }, unknown> = {
    kind: "Widget",
    plural: "widgets",
    singular: "widget",
    shortNames: [],
    description: "test",
    schema: managedSpec({ partRef: ref("Widget").optional() }) as never,
    references: (s) => (s.partRef ? [{ field: "partRef", kind: "Widget", name: s.partRef.name }] : []),
    desired: () => ({}),
    observe: async (_c, href) => ({ href }),
    lookup: async () => [],
    hrefOf: (o) => o.href,
    create: async () => {
      calls.push("create");
      return `/api/widgets/${calls.length}`;
    },
    update: async () => {},
    delete: async () => void calls.push("delete"),
    diff: () => [],
    atProvider: () => ({}),
  };
  const kube = new FakeKube();
  const refs = new ReferenceIndex();
  const clock = new FakeClock();
  const reconciler = new ManagedReconciler(kind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: {} }) },
    refs,
    owners: new OwnerIndex(),
    events: { emit: () => {} },
    clock,
    log: pino({ level: "silent" }),
  });
  const apply = (name: string, spec: object) =>
    kube.put("Widget", {
      metadata: { ...kube.get("Widget", "ns", name)?.metadata, name, namespace: "ns" },
      spec,
    });
  const condition = (name: string, type: string) =>
    getCondition(kube.get("Widget", "ns", name)?.status?.conditions, type);
  return { kube, calls, reconciler, apply, condition, clock };
}

describe("a reference cycle", () => {
  it("is Stalled ReferenceCycle naming the cycle and the reference that starts it, with no service call", async () => {
    const { calls, reconciler, apply, condition } = world();
    apply("a", { partRef: { name: "b" } });
    apply("b", { partRef: { name: "a" } });
    await reconciler.reconcile("ns", "a");
    // `a` alone does not know `b` names it yet: it waits for `b`, as any new dependent of a target
    // on its way does, parked without a write (b's Ready would wake it).
    expect(condition("a", "Ready")).toBeUndefined();
    await reconciler.reconcile("ns", "b");
    await reconciler.reconcile("ns", "a");
    expect(condition("a", "Stalled")).toMatchObject({
      status: "True",
      reason: "ReferenceCycle",
      message:
        "spec.partRef: the references form a cycle: Widget a -> Widget b -> Widget a; none of them can " +
        "become Ready until one of these references is removed",
    });
    expect(condition("b", "Stalled")?.message).toContain("Widget b -> Widget a -> Widget b");
    expect(condition("b", "Ready")).toMatchObject({ status: "False", reason: "ReferenceCycle" });
    expect(calls).toEqual([]);
  });

  it("removing one reference lets both proceed; deleting both at once releases both", async () => {
    const { kube, calls, reconciler, apply, condition } = world();
    apply("a", { partRef: { name: "b" } });
    apply("b", { partRef: { name: "a" } });
    await reconciler.reconcile("ns", "b");
    await reconciler.reconcile("ns", "a");
    apply("b", {});
    await reconciler.reconcile("ns", "b");
    await reconciler.reconcile("ns", "a");
    expect(condition("b", "Ready")?.status).toBe("True");
    expect(condition("a", "Ready")?.status).toBe("True");
    // The cycle again, between two objects that exist: deleted together, neither waits for the other.
    apply("b", { partRef: { name: "a" } });
    await reconciler.reconcile("ns", "b");
    expect(condition("b", "Stalled")?.reason).toBe("ReferenceCycle");
    kube.delete("Widget", "ns", "a");
    kube.delete("Widget", "ns", "b");
    await reconciler.reconcile("ns", "a");
    await reconciler.reconcile("ns", "b");
    expect(kube.get("Widget", "ns", "a")).toBeUndefined();
    expect(kube.get("Widget", "ns", "b")).toBeUndefined();
    expect(calls).toEqual(["create", "create", "delete", "delete"]);
  });
});

describe("a new dependent of a target on its way", () => {
  it("is parked without a write (the target's Ready wakes it); after the retry period it records the wait", async () => {
    const { kube, calls, reconciler, apply, condition, clock } = world();
    apply("b", {});
    apply("a", { partRef: { name: "b" } });
    const before = kube.get("Widget", "ns", "a")?.metadata.resourceVersion;
    await reconciler.reconcile("ns", "a");
    expect(condition("a", "Ready")).toBeUndefined();
    expect(kube.get("Widget", "ns", "a")?.metadata.resourceVersion).toBe(before);
    await reconciler.reconcile("ns", "a"); // woken again (another target Ready): still parked
    expect(condition("a", "Ready")).toBeUndefined();
    clock.advance(60_000);
    await reconciler.reconcile("ns", "a");
    expect(condition("a", "Ready")).toMatchObject({ status: "False", reason: "DependencyNotReady" });
    expect(calls).toEqual([]);
  });
});
