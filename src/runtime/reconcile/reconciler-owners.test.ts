import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind, ManagedObject } from "../sdk/index.ts";
import { Annotation, FINALIZER, getCondition, managedSpec, objectKey } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A toy service of things with a description, logging every call. */
class Service {
  readonly objects = new Map<string, { href: string; name: string; description: string }>();
  readonly calls: string[] = [];
  private next = 1;
  show(href: string) {
    this.calls.push(`show ${href}`);
    const o = this.objects.get(href);
    return o && { ...o };
  }
  create(d: { name: string; description: string }) {
    const href = `/api/things/${this.next++}`;
    this.calls.push(`create ${href}`);
    this.objects.set(href, { href, ...d });
    return href;
  }
  update(href: string, description: string) {
    this.calls.push(`update ${href}`);
    this.objects.get(href)!.description = description;
  }
  destroy(href: string) {
    this.calls.push(`destroy ${href}`);
    this.objects.delete(href);
  }
}

type D = { name: string; description: string };
type O = { href: string; name: string; description: string };

const thingKind: ManagedKind<{ description: string }, D, O, Service> = {
  kind: "Thing",
  plural: "things",
  singular: "thing",
  shortNames: [],
  description: "test",
  schema: managedSpec({ description: z.string().default("") }) as never,
  references: () => [],
  desired: (s, ctx) => ({ name: ctx.meta.name, description: s.description }),
  observe: async (c, href) => c.show(href),
  lookup: async (c, d) => [...c.objects.values()].filter((o) => o.name === d.name),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d),
  update: async (c, href, d) => c.update(href, d.description),
  delete: async (c, href) => c.destroy(href),
  diff: (d, o) =>
    d.description === o.description
      ? []
      : [{ field: "description", desired: d.description, observed: o.description }],
  atProvider: (o) => ({ description: o.description }),
};

let kube: FakeKube;
let service: Service;
let owners: OwnerIndex;
let woken: string[];
let events: string[];

function reconcilerFor(kind: ManagedKind<{ description: string }, D, O, Service>): ManagedReconciler {
  return new ManagedReconciler(kind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners,
    events: { emit: (_o, _k, type, reason, message) => events.push(`${type} ${reason}: ${message}`) },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
}

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  owners = new OwnerIndex();
  woken = [];
  events = [];
  // Fed as the operator's informer handlers feed it, keeping whom it says to wake.
  kube.onChange = (kind, o, old) => {
    if (o) woken.push(...owners.set(kind, o));
    else if (old) woken.push(...owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name)));
  };
});

function apply(ns: string, spec: Record<string, unknown>, metadata: Partial<ManagedObject["metadata"]> = {}) {
  const old = kube.get("Thing", ns, "web");
  kube.put("Thing", {
    metadata: { ...(old?.metadata ?? {}), name: "web", namespace: ns, ...metadata },
    spec,
  });
}
const obj = (ns: string) => kube.get("Thing", ns, "web");
const stalled = (ns: string) => getCondition(obj(ns)?.status?.conditions, "Stalled");

/** demo/web is Ready on the object it created; returns its href. */
async function demoOwns(reconciler: ManagedReconciler): Promise<string> {
  apply("demo", { description: "Web tier" }, { creationTimestamp: "2026-01-01T10:00:00Z" });
  await reconciler.reconcile("demo", "web");
  service.calls.length = 0;
  events.length = 0;
  return obj("demo")!.status!.href!;
}

describe("ManagedReconciler: one owner per href", () => {
  it("a second resource naming the href is Stalled AlreadyManaged: no service call, no finalizer, only a status write", async () => {
    const reconciler = reconcilerFor(thingKind);
    const href = await demoOwns(reconciler);
    apply(
      "teamb",
      { description: "taken over" },
      { annotations: { [Annotation.href]: href }, creationTimestamp: "2026-01-01T11:00:00Z" },
    );
    kube.writes.length = 0;
    const r = await reconciler.reconcile("teamb", "web");
    expect(r.outcome).toBe("terminal");
    expect(stalled("teamb")).toMatchObject({ status: "True", reason: "AlreadyManaged" });
    expect(stalled("teamb")?.message).toMatch(
      /^\/api\/things\/1 is already managed by a resource in another namespace;/,
    );
    expect(service.calls).toEqual([]);
    expect(service.objects.get(href)?.description).toBe("Web tier");
    expect(obj("teamb")?.metadata.finalizers).toBeUndefined();
    expect(obj("teamb")?.status?.href).toBeUndefined();
    expect(kube.writes.map((w) => `${w.op} ${w.key}`)).toEqual(["status Thing/teamb/web"]);
    expect(events).toEqual([`Warning Stalled: ${stalled("teamb")?.message}`]);
    // The owner is untouched by the claim.
    expect((await reconciler.reconcile("demo", "web")).outcome).toBe("ready");
    expect(service.calls).toEqual([`show ${href}`]);
  });

  it("deleting a claimant that carries the finalizer leaves the object to its owner: no call, finalizer off", async () => {
    const reconciler = reconcilerFor(thingKind);
    const href = await demoOwns(reconciler);
    // Its finalizer and recorded href are left from before this check (two owners at once).
    apply(
      "teamb",
      { description: "taken over" },
      {
        annotations: { [Annotation.href]: href },
        finalizers: [FINALIZER],
        creationTimestamp: "2026-01-01T11:00:00Z",
      },
    );
    kube.patchStatus({ kind: "Thing", plural: "things", namespace: "teamb", name: "web" }, { href });
    kube.delete("Thing", "teamb", "web");
    await reconciler.reconcile("teamb", "web");
    expect(obj("teamb")).toBeUndefined();
    expect(service.calls).toEqual([]);
    expect(service.objects.has(href)).toBe(true);
    expect(events).toEqual([
      `Normal Orphaned: left ${href} in the service: it is managed by a resource in another namespace`,
    ]);
  });

  it("when the owner goes (deletionPolicy Orphan) the claimant is woken and adopts on its next reconcile", async () => {
    const reconciler = reconcilerFor(thingKind);
    const href = await demoOwns(reconciler);
    apply("teamb", { description: "team b" }, { annotations: { [Annotation.href]: href } });
    await reconciler.reconcile("teamb", "web");
    expect(stalled("teamb")?.reason).toBe("AlreadyManaged");
    apply("demo", { description: "Web tier", deletionPolicy: "Orphan" });
    kube.delete("Thing", "demo", "web");
    await reconciler.reconcile("demo", "web");
    expect(obj("demo")).toBeUndefined();
    expect(woken).toEqual(["Thing/teamb/web"]);
    expect((await reconciler.reconcile("teamb", "web")).outcome).toBe("ready");
    expect(obj("teamb")?.status?.href).toBe(href);
    expect(obj("teamb")?.metadata.finalizers).toEqual([FINALIZER]);
    expect(service.objects.get(href)?.description).toBe("team b");
    expect(service.objects.size).toBe(1);
  });

  it("an ObserveOnly resource may observe an href another one manages", async () => {
    const reconciler = reconcilerFor(thingKind);
    const href = await demoOwns(reconciler);
    apply("teamb", { managementPolicy: "ObserveOnly" }, { annotations: { [Annotation.href]: href } });
    expect((await reconciler.reconcile("teamb", "web")).outcome).toBe("ready");
    expect(service.calls).toEqual([`show ${href}`]);
  });

  it("a lookup that finds the object itself (adoptExisting) does not adopt one managed elsewhere, nor create", async () => {
    const reconciler = reconcilerFor({ ...thingKind, adoptExisting: true });
    const href = await demoOwns(reconciler);
    // Another namespace's resource whose lookup (by name: here the identity) finds demo's object.
    apply("teamb", { description: "team b" });
    await reconciler.reconcile("teamb", "web");
    expect(stalled("teamb")).toMatchObject({ status: "True", reason: "AlreadyManaged" });
    expect(stalled("teamb")?.message).toContain(
      `${href} is already managed by a resource in another namespace`,
    );
    expect(service.calls.filter((c) => !c.startsWith("show"))).toEqual([]);
    expect(obj("teamb")?.metadata.annotations?.[Annotation.href]).toBeUndefined();
    expect(service.objects.get(href)?.description).toBe("Web tier");
  });
});
