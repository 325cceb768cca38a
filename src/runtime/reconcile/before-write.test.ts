import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, DependencyNotReadyError, getCondition, managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A toy service whose `dial` takes any value, though only the ones of `known` work. */
class Service {
  readonly objects = new Map<string, { href: string; dial: string }>();
  readonly calls: string[] = [];
  known = ["a", "b"];
  next = 1;
}

type D = { dial: string };
type O = { href: string; dial: string };

const dialKind: ManagedKind<{ dial: string }, D, O, Service> = {
  kind: "Dial",
  plural: "dials",
  singular: "dial",
  shortNames: [],
  description: "test",
  schema: managedSpec({ dial: z.string() }) as never,
  references: () => [],
  desired: (s) => ({ dial: s.dial }),
  observe: async (c, href) => {
    const o = c.objects.get(href);
    return o && { ...o };
  },
  lookup: async () => [],
  hrefOf: (o) => o.href,
  create: async (c, d) => {
    const href = `/api/dials/${c.next++}`;
    c.calls.push(`create ${d.dial}`);
    c.objects.set(href, { href, dial: d.dial });
    return href;
  },
  update: async (c, href, d) => {
    c.calls.push(`update ${d.dial}`);
    c.objects.set(href, { href, dial: d.dial });
  },
  delete: async (c, href) => void c.objects.delete(href),
  diff: (d, o) => (d.dial === o.dial ? [] : [{ field: "dial", desired: d.dial, observed: o.dial }]),
  async beforeWrite(c, d, fields) {
    c.calls.push(`check ${fields?.join(",") ?? "create"}`);
    if (!c.known.includes(d.dial))
      throw new DependencyNotReadyError(`spec.dial: ${d.dial} is not one of ${c.known.join(", ")}`);
  },
  atProvider: (o) => ({ dial: o.dial }),
};

const NS = "team-a";
let kube: FakeKube;
let service: Service;
let reconciler: ManagedReconciler;

function reconcilerOf(kind: ManagedKind<{ dial: string }, D, O, Service>) {
  return new ManagedReconciler(kind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: { emit: () => {} },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
}

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  reconciler = reconcilerOf(dialKind);
});

function apply(spec: Record<string, unknown>, annotations?: Record<string, string>): void {
  const old = kube.get("Dial", NS, "d");
  const meta = old?.metadata;
  kube.put("Dial", {
    metadata: { ...meta, name: "d", namespace: NS, annotations: { ...meta?.annotations, ...annotations } },
    spec,
  });
}
const obj = () => kube.get("Dial", NS, "d")!;
const ready = () => getCondition(obj().status?.conditions, "Ready");

describe("beforeWrite: the kind's check of the service just before a write", () => {
  it("a create it refuses is never sent, nor marked pending; the resource waits, naming the field", async () => {
    apply({ dial: "z" });
    await reconciler.reconcile(NS, "d");
    expect(service.calls).toEqual(["check create"]);
    expect(ready()).toMatchObject({ status: "False", reason: "DependencyNotReady" });
    expect(ready()?.message).toContain("spec.dial: z is not one of a, b");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();

    apply({ dial: "a" });
    await reconciler.reconcile(NS, "d");
    expect(service.calls).toEqual(["check create", "check create", "create a"]);
    expect(ready()?.status).toBe("True");
  });

  it("checks an update with the fields it changes, and nothing when nothing is written", async () => {
    apply({ dial: "a" });
    await reconciler.reconcile(NS, "d");
    await reconciler.reconcile(NS, "d");
    expect(service.calls).toEqual(["check create", "create a"]);

    apply({ dial: "z" });
    await reconciler.reconcile(NS, "d");
    expect(service.calls.slice(2)).toEqual(["check dial"]);
    expect(ready()).toMatchObject({ status: "False", reason: "DependencyNotReady" });

    service.known.push("z");
    await reconciler.reconcile(NS, "d");
    expect(service.calls.slice(3)).toEqual(["check dial", "update z"]);
    expect(ready()?.status).toBe("True");
  });

  it("a replacement is checked before the object it replaces is deleted", async () => {
    reconciler = reconcilerOf({ ...dialKind, immutable: ["dial"], replace: "deleteBeforeCreate" });
    apply({ dial: "a" });
    await reconciler.reconcile(NS, "d");
    apply({ dial: "z" });
    await reconciler.reconcile(NS, "d");
    expect(service.calls).toEqual(["check create", "create a", "check create"]);
    expect([...service.objects.values()]).toEqual([{ href: "/api/dials/1", dial: "a" }]);
    expect(ready()).toMatchObject({ status: "False", reason: "DependencyNotReady" });
  });

  it("an ObserveOnly resource is never checked", async () => {
    service.objects.set("/api/dials/7", { href: "/api/dials/7", dial: "q" });
    apply({ dial: "z", managementPolicy: "ObserveOnly" }, { [Annotation.href]: "/api/dials/7" });
    await reconciler.reconcile(NS, "d");
    expect(service.calls).toEqual([]);
    expect(obj().status?.atProvider).toEqual({ dial: "q" });
  });
});
