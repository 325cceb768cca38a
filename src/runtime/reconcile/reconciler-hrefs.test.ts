import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind, ManagedObject } from "../sdk/index.ts";
import { Annotation, FINALIZER, getCondition, href, managedSpec, objectKey } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/**
 * A toy service that reads ids loosely, as a Rails `find` does (`01` finds `1`): the object
 * shown has its own self link, which is the identity.
 */
class Service {
  readonly objects = new Map<string, { href: string; name: string; zone: string }>();
  readonly calls: string[] = [];
  private next = 1;
  show(at: string) {
    this.calls.push(`show ${at}`);
    const o = this.objects.get(at.replace(/\/0+(\d)/, "/$1"));
    return o && { ...o };
  }
  create(d: { name: string; zone: string }) {
    const at = `/api/things/${this.next++}`;
    this.calls.push(`create ${at}`);
    this.objects.set(at, { href: at, ...d });
    return at;
  }
  update(at: string) {
    this.calls.push(`update ${at}`);
  }
  destroy(at: string) {
    this.calls.push(`destroy ${at}`);
    this.objects.delete(at);
  }
}

type S = { zone: string; parentHref?: string };
type D = { name: string; zone: string };
type O = { href: string; name: string; zone: string };

const thingKind: ManagedKind<S, D, O, Service> = {
  kind: "Thing",
  plural: "things",
  singular: "thing",
  shortNames: [],
  description: "test",
  schema: managedSpec({ zone: z.string(), parentHref: href("a parent").optional() }) as never,
  references: () => [],
  desired: (s, ctx) => ({ name: ctx.meta.name, zone: s.zone }),
  observe: async (c, at) => c.show(at),
  lookup: async (c, d) => [...c.objects.values()].filter((o) => o.name === d.name && o.zone === d.zone),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d),
  update: async (c, at) => c.update(at),
  delete: async (c, at) => c.destroy(at),
  diff: (d, o) => (d.zone === o.zone ? [] : [{ field: "zone", desired: d.zone, observed: o.zone }]),
  immutable: ["zone"],
  replace: "createBeforeDelete",
  atProvider: (o) => ({ zone: o.zone }),
};

let kube: FakeKube;
let service: Service;
let events: string[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  events = [];
  start();
});

/** The operator (re)started: its owner index is made anew from what the cluster holds. */
function start(): void {
  const owners = new OwnerIndex();
  for (const o of kube.list("Thing")) owners.set("Thing", o);
  kube.onChange = (kind, o, old) => {
    if (o) owners.set(kind, o);
    else if (old) owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name));
  };
  reconciler = new ManagedReconciler(thingKind, {
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

function apply(ns: string, name: string, spec: S, metadata: Partial<ManagedObject["metadata"]> = {}) {
  const old = kube.get("Thing", ns, name);
  kube.put("Thing", { metadata: { ...(old?.metadata ?? {}), name, namespace: ns, ...metadata }, spec });
}
const obj = (ns: string, name: string) => kube.get("Thing", ns, name)!;
const stalled = (ns: string, name: string) => getCondition(obj(ns, name).status?.conditions, "Stalled");

/** demo/web is Ready on the object it created. */
async function victim(): Promise<string> {
  apply("demo", "web", { zone: "a" }, { creationTimestamp: "2026-01-01T10:00:00Z" });
  await reconciler.reconcile("demo", "web");
  const at = obj("demo", "web").status!.href!;
  service.calls.length = 0;
  events.length = 0;
  return at;
}

const SPELLINGS = ["1/", "1?x=1", "1?", "%31", "1.json", "1#x", "./1"];

describe("ManagedReconciler: one canonical href", () => {
  it.each(SPELLINGS)(
    "an href annotation spelled /api/things/%s is Stalled InvalidHref: no call, no finalizer, the victim untouched",
    async (spelling) => {
      const at = await victim();
      const claimed = `/api/things/${spelling}`;
      apply("attacker", "web", { zone: "b" }, { annotations: { [Annotation.href]: claimed } });
      const r = await reconciler.reconcile("attacker", "web");
      expect(r.outcome).toBe("terminal");
      expect(stalled("attacker", "web")).toMatchObject({ status: "True", reason: "InvalidHref" });
      expect(stalled("attacker", "web")?.message).toContain(
        `metadata.annotations[${Annotation.href}]: ${claimed} must`,
      );
      expect(service.calls).toEqual([]);
      expect(obj("attacker", "web").metadata.finalizers ?? []).not.toContain(FINALIZER);
      expect(service.objects.get(at)?.zone).toBe("a");
    },
  );

  it("an href the service shows under another self link is not the one claimed: refused, nothing written or deleted", async () => {
    const at = await victim();
    // The attacker's own finalizer: the deletion must still leave the victim's object alone.
    apply(
      "attacker",
      "web",
      { zone: "b" },
      { annotations: { [Annotation.href]: "/api/things/01" }, finalizers: [FINALIZER] },
    );
    const r = await reconciler.reconcile("attacker", "web");
    expect(r.outcome).toBe("terminal");
    expect(stalled("attacker", "web")).toMatchObject({ reason: "InvalidHref" });
    expect(stalled("attacker", "web")?.message).toContain(
      "the service shows /api/things/01 as /api/things/1: that is its href",
    );
    expect(service.calls).toEqual(["show /api/things/01"]);
    expect(obj("attacker", "web").status?.href).toBeUndefined();

    apply("attacker", "web", { zone: "b" }, { deletionTimestamp: "2026-01-02T00:00:00Z" });
    await reconciler.reconcile("attacker", "web");
    expect(service.calls.filter((c) => c.startsWith("destroy"))).toEqual([]);
    expect(service.objects.get(at)?.zone).toBe("a");
  });

  it("a spec href field in another spelling is InvalidHref naming the field, before any call", async () => {
    apply("demo", "web", { zone: "a", parentHref: "/api/parents/1.json" });
    await reconciler.reconcile("demo", "web");
    expect(stalled("demo", "web")).toMatchObject({ status: "True", reason: "InvalidHref" });
    expect(stalled("demo", "web")?.message).toMatch(
      /^spec\.parentHref: \/api\/parents\/1\.json must not end/,
    );
    expect(service.calls).toEqual([]);
  });
});

describe("ManagedReconciler: replaces is the operator's own word", () => {
  it("a user's cloud.svc.io/replaces annotation deletes nothing, with Orphan or with a finalizer", async () => {
    const at = await victim();
    apply("attacker", "web", { zone: "b", deletionPolicy: "Orphan" } as S, {
      annotations: { "cloud.svc.io/replaces": `${at}/` },
    });
    await reconciler.reconcile("attacker", "web");
    apply(
      "attacker",
      "other",
      { zone: "c" },
      { annotations: { [Annotation.href]: at, "cloud.svc.io/replaces": at }, finalizers: [FINALIZER] },
    );
    await reconciler.reconcile("attacker", "other");
    expect(stalled("attacker", "other")).toMatchObject({ reason: "AlreadyManaged" });
    apply("attacker", "other", { zone: "c" }, { deletionTimestamp: "2026-01-02T00:00:00Z" });
    await reconciler.reconcile("attacker", "other");
    apply("attacker", "web", { zone: "b" }, { deletionTimestamp: "2026-01-02T00:00:00Z" });
    await reconciler.reconcile("attacker", "web");
    expect(service.calls.filter((c) => c.startsWith("destroy") && c !== "destroy /api/things/2")).toEqual([]);
    expect(service.objects.get(at)?.zone).toBe("a");
    expect(events.join("\n")).not.toMatch(/superseded|demo\/web/);
  });

  it("a replacement leaves its superseded object when another resource has come to manage it", async () => {
    apply("team", "t", { zone: "a" }, { creationTimestamp: "2026-01-01T10:00:00Z" });
    await reconciler.reconcile("team", "t");
    const first = obj("team", "t").status!.href!;
    apply("team", "t", { zone: "b" });
    await reconciler.reconcile("team", "t");
    expect(obj("team", "t").status?.replaces).toBe(first);
    // An older resource in the namespace names the superseded object, and the operator restarts
    // (what it granted is forgotten): the older one manages it now.
    apply(
      "team",
      "keeper",
      { zone: "a" },
      {
        annotations: { [Annotation.href]: first },
        creationTimestamp: "2026-01-01T09:00:00Z",
      },
    );
    start();
    await reconciler.reconcile("team", "keeper");
    await reconciler.reconcile("team", "t");
    expect(service.calls.filter((c) => c === `destroy ${first}`)).toEqual([]);
    expect(service.objects.has(first)).toBe(true);
    expect(obj("team", "t").status?.replaces).toBeUndefined();
    expect(events).toContain(
      `Normal Replaced: replaced ${first} with /api/things/2; left ${first}: it is managed by team/keeper`,
    );
  });
});
