import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { EventSink } from "../client/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, DeletionBlockedError, managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A toy service whose `zone` cannot be updated: the kind replaces the object, creating first. */
class Service {
  readonly objects = new Map<string, { href: string; name: string; zone: string }>();
  readonly calls: string[] = [];
  failDestroy = false;
  /** Refused as a service refuses deleting an object still in use (the kind's DeletionBlocked). */
  inUse = false;
  private next = 1;
  show(href: string) {
    this.calls.push(`show ${href}`);
    const o = this.objects.get(href);
    return o && { ...o };
  }
  create(d: { name: string; zone: string }) {
    const href = `/api/things/${this.next++}`;
    this.calls.push(`create ${href}`);
    this.objects.set(href, { href, ...d });
    return href;
  }
  destroy(href: string) {
    this.calls.push(`destroy ${href}`);
    if (this.failDestroy) throw new Error("connection reset");
    if (this.inUse)
      throw new DeletionBlockedError(`the service refuses to delete ${href} yet: in use`, 5_000);
    this.objects.delete(href);
  }
}

type D = { name: string; zone: string };
type O = { href: string; name: string; zone: string };

const thingKind: ManagedKind<{ zone: string }, D, O, Service> = {
  kind: "Thing",
  plural: "things",
  singular: "thing",
  shortNames: [],
  description: "test",
  schema: managedSpec({ zone: z.string() }) as never,
  references: () => [],
  desired: (s, ctx) => ({ name: ctx.meta.name, zone: s.zone }),
  observe: async (c, href) => c.show(href),
  // Identity includes the zone, so a pending create is never confused with the object it replaces.
  lookup: async (c, d) => [...c.objects.values()].filter((o) => o.name === d.name && o.zone === d.zone),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d),
  update: async () => {},
  delete: async (c, href) => c.destroy(href),
  diff: (d, o) => (d.zone === o.zone ? [] : [{ field: "zone", desired: d.zone, observed: o.zone }]),
  immutable: ["zone"],
  replace: "createBeforeDelete",
  atProvider: (o) => ({ zone: o.zone }),
};

const NS = "team-a";
let kube: FakeKube;
let service: Service;
let events: string[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  events = [];
  const sink: EventSink = { emit: (_o, _k, _t, reason, message) => events.push(`${reason}: ${message}`) };
  reconciler = new ManagedReconciler(thingKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: sink,
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
});

function apply(zone: string) {
  const old = kube.get("Thing", NS, "t");
  kube.put("Thing", { metadata: { ...(old?.metadata ?? {}), name: "t", namespace: NS }, spec: { zone } });
}
const obj = () => kube.get("Thing", NS, "t")!;

async function readyIn(zone: string): Promise<string> {
  apply(zone);
  await reconciler.reconcile(NS, "t");
  return obj().status!.href!;
}

describe("replace: createBeforeDelete", () => {
  it("creates the successor before deleting the object it replaces, leaving exactly one", async () => {
    const first = await readyIn("a");
    apply("b");
    service.calls.length = 0;
    const started = await reconciler.reconcile(NS, "t");
    expect(started).toMatchObject({ outcome: "progressing", requeueAfterMs: 1 });
    expect(obj().status?.replaces).toBe(first);
    expect(obj().metadata.annotations?.[Annotation.href]).toBeUndefined();
    expect(service.objects.has(first)).toBe(true);

    const done = await reconciler.reconcile(NS, "t");
    expect(done.outcome).toBe("ready");
    const second = obj().status!.href!;
    expect(second).not.toBe(first);
    const creates = service.calls.findIndex((c) => c.startsWith("create"));
    const destroys = service.calls.indexOf(`destroy ${first}`);
    expect(creates).toBeGreaterThanOrEqual(0);
    expect(destroys).toBeGreaterThan(creates);
    expect([...service.objects.values()]).toEqual([{ href: second, name: "t", zone: "b" }]);
    expect(obj().status?.replaces).toBeUndefined();
    expect(events.filter((e) => e.startsWith("Replaced"))).toHaveLength(2);
  });

  it("a failed delete of the old object is retried from the annotation", async () => {
    const first = await readyIn("a");
    apply("b");
    await reconciler.reconcile(NS, "t");
    service.failDestroy = true;
    expect((await reconciler.reconcile(NS, "t")).retry).toBe(true);
    expect(service.objects.size).toBe(2);
    expect(obj().status?.replaces).toBe(first);
    service.failDestroy = false;
    expect((await reconciler.reconcile(NS, "t")).outcome).toBe("ready");
    expect(service.objects.size).toBe(1);
    expect(service.calls.filter((c) => c.startsWith("create"))).toHaveLength(2);
  });

  it("the old object still in use: the successor is Ready (what uses the old one can move), the old one is retried", async () => {
    const first = await readyIn("a");
    apply("b");
    await reconciler.reconcile(NS, "t");
    service.inUse = true;
    const waiting = await reconciler.reconcile(NS, "t");
    expect(waiting).toMatchObject({ outcome: "ready", requeueAfterMs: 5_000 });
    const second = obj().status!.href!;
    const ready = obj().status?.conditions?.find((c) => c.type === "Ready");
    expect(ready).toMatchObject({
      status: "True",
      reason: "Available",
      message: `replaced ${first} with ${second}; waiting to delete ${first}: the service refuses to delete ${first} yet: in use`,
    });
    expect(obj().status?.replaces).toBe(first);
    expect(service.objects.size).toBe(2);

    service.inUse = false;
    expect(await reconciler.reconcile(NS, "t")).toMatchObject({ outcome: "ready" });
    expect([...service.objects.keys()]).toEqual([second]);
    expect(obj().status?.replaces).toBeUndefined();
    expect(obj().status?.conditions?.find((c) => c.type === "Ready")?.message).toBe("");
  });

  it("deleting the resource mid-replacement deletes the superseded object too", async () => {
    const first = await readyIn("a");
    apply("b");
    await reconciler.reconcile(NS, "t");
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    expect(service.objects.has(first)).toBe(false);
    expect(service.objects.size).toBe(0);
    expect(kube.get("Thing", NS, "t")).toBeUndefined();
  });
});
