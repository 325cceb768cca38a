import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { EventSink, ObjectStore } from "../client/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import { IndexObserver, Observations } from "../manager/index.ts";
import type { ManagedKind, ManagedObject } from "../sdk/index.ts";
import { managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/**
 * What the runtime records beyond the service's representation: write-only values
 * (`writeOnly` -> status.applied), adoption of an existing object (`adoptExisting` ->
 * status.adopted) and objects left in place on deletion (`retain`).
 */

interface Item {
  href: string;
  name: string;
  /** Write-only: the service never shows it. */
  secret: string;
}

class ItemService {
  readonly items = new Map<string, Item>();
  readonly calls: string[] = [];
  private next = 1;
  add(name: string, secret = "s0"): string {
    const href = `/api/items/${this.next++}`;
    this.items.set(href, { href, name, secret });
    return href;
  }
}

type Spec = { name?: string; secret: string; keepAdopted: boolean };
type Desired = { name: string; secret: string };
type Observed = { href: string; name: string };

function itemKind(options: {
  replace?: boolean;
  adoptExisting?: boolean;
}): ManagedKind<Spec, Desired, Observed, ItemService> {
  return {
    kind: "Item",
    plural: "items",
    singular: "item",
    shortNames: [],
    description: "test",
    schema: managedSpec({
      name: z.string().optional(),
      secret: z.string(),
      keepAdopted: z.boolean().default(false),
    }) as never,
    references: () => [],
    desired: (s, ctx) => ({ name: s.name ?? ctx.meta.name, secret: s.secret }),
    observe: async (c, href) => {
      c.calls.push(`show ${href}`);
      const i = c.items.get(href);
      return i && { href: i.href, name: i.name };
    },
    lookup: async (c, d) => {
      c.calls.push(`index ${d.name}`);
      return [...c.items.values()]
        .filter((i) => i.name === d.name)
        .map((i) => ({ href: i.href, name: i.name }));
    },
    hrefOf: (o) => o.href,
    create: async (c, d) => {
      c.calls.push(`create ${d.name}`);
      return c.add(d.name, d.secret);
    },
    update: async (c, href, d, _o, diff) => {
      c.calls.push(`update ${href} ${diff.map((x) => x.field).join(",")}`);
      const item = c.items.get(href)!;
      item.name = d.name;
      item.secret = d.secret;
    },
    delete: async (c, href) => {
      c.calls.push(`destroy ${href}`);
      c.items.delete(href);
    },
    diff: (d, o) => (d.name === o.name ? [] : [{ field: "name", desired: d.name, observed: o.name }]),
    writeOnly: (d) => ({ secret: d.secret }),
    immutable: options.replace ? ["secret"] : [],
    replace: options.replace ? "deleteBeforeCreate" : undefined,
    adoptExisting: options.adoptExisting,
    retain: (spec, status) =>
      spec.keepAdopted && status.adopted ? "it existed before the operator adopted it" : undefined,
    atProvider: (o) => ({ name: o.name }),
  };
}

const NS = "ns";
let kube: FakeKube;
let service: ItemService;
let events: { reason: string; message: string }[];

function reconcilerFor(
  kind: ManagedKind<Spec, Desired, Observed, ItemService>,
  store: ObjectStore = kube,
): ManagedReconciler {
  const sink: EventSink = { emit: (_o, _k, _t, reason, message) => events.push({ reason, message }) };
  return new ManagedReconciler(kind, {
    store,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: sink,
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
}

function apply(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): void {
  const old = kube.get("Item", NS, "i");
  kube.put("Item", { metadata: { ...(old?.metadata ?? {}), name: "i", namespace: NS, ...metadata }, spec });
}
const obj = () => kube.get("Item", NS, "i")!;

beforeEach(() => {
  kube = new FakeKube();
  service = new ItemService();
  events = [];
});

describe("write-only fields (status.applied)", () => {
  it("records write-only values with the href at create, and an unchanged spec needs no call", async () => {
    const r = reconcilerFor(itemKind({}));
    apply({ secret: "a" });
    await r.reconcile(NS, "i");
    expect(obj().status?.applied).toEqual({ secret: "a" });
    service.calls.length = 0;
    await r.reconcile(NS, "i");
    expect(service.calls).toEqual(["show /api/items/1"]);
  });

  it("a changed write-only value is diffed against the record and updated", async () => {
    const r = reconcilerFor(itemKind({}));
    apply({ secret: "a" });
    await r.reconcile(NS, "i");
    apply({ secret: "b" });
    service.calls.length = 0;
    await r.reconcile(NS, "i");
    expect(service.calls).toContain("update /api/items/1 secret");
    expect(service.items.get("/api/items/1")?.secret).toBe("b");
    expect(obj().status?.applied).toEqual({ secret: "b" });
  });

  it("a changed write-only value of a replaced kind deletes and re-creates, clearing the record in between", async () => {
    const r = reconcilerFor(itemKind({ replace: true }));
    apply({ secret: "a" });
    await r.reconcile(NS, "i");
    apply({ secret: "b" });
    await r.reconcile(NS, "i");
    expect(events.map((e) => e.reason)).toContain("Replaced");
    expect(service.items.size).toBe(0);
    expect(obj().status?.applied).toBeUndefined();
    await r.reconcile(NS, "i");
    expect([...service.items.values()]).toMatchObject([{ name: "i", secret: "b" }]);
    expect(obj().status?.applied).toEqual({ secret: "b" });
  });

  it("an object adopted by href has no record: the spec is taken as applied", async () => {
    const r = reconcilerFor(itemKind({}));
    const href = service.add("i", "unknown");
    apply({ secret: "a" }, { annotations: { "cloud.svc.io/href": href } });
    await r.reconcile(NS, "i");
    expect(service.calls.filter((c) => c.startsWith("update"))).toEqual([]);
    expect(obj().status?.applied).toEqual({ secret: "a" });
  });
});

describe("adoptExisting and retain", () => {
  it("adopts a single existing match instead of creating, and records it in status", async () => {
    const r = reconcilerFor(itemKind({ adoptExisting: true }));
    const href = service.add("i");
    apply({ secret: "s0" });
    await r.reconcile(NS, "i");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual([]);
    expect(obj().status).toMatchObject({ href, adopted: true });
    expect(events.map((e) => e.reason)).toEqual(["Adopted"]);
  });

  it("creates when nothing matches, without the adopted mark", async () => {
    const r = reconcilerFor(itemKind({ adoptExisting: true }));
    apply({ secret: "s0" });
    await r.reconcile(NS, "i");
    expect(service.calls).toEqual(["index i", "create i", "show /api/items/1"]);
    expect(obj().status?.adopted).toBeUndefined();
  });

  it("stops (Stalled) when several existing objects match", async () => {
    const r = reconcilerFor(itemKind({ adoptExisting: true }));
    service.add("i");
    service.add("i");
    apply({ secret: "s0" });
    expect(await r.reconcile(NS, "i")).toMatchObject({ outcome: "terminal" });
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual([]);
  });

  it("retain leaves an adopted object in place on deletion; otherwise it is deleted", async () => {
    const r = reconcilerFor(itemKind({ adoptExisting: true }));
    const href = service.add("i");
    apply({ secret: "s0", keepAdopted: true });
    await r.reconcile(NS, "i");
    kube.delete("Item", NS, "i");
    await r.reconcile(NS, "i");
    expect(kube.get("Item", NS, "i")).toBeUndefined();
    expect(service.items.has(href)).toBe(true);
    expect(events.at(-1)?.reason).toBe("Orphaned");

    apply({ secret: "s0", keepAdopted: true });
    service.items.clear();
    await r.reconcile(NS, "i");
    kube.delete("Item", NS, "i");
    await r.reconcile(NS, "i");
    expect(service.items.size).toBe(0);
    expect(events.at(-1)?.reason).toBe("Deleted");
  });
});

describe("a cache that has not caught up with our own finalizer removal", () => {
  it("a reconcile of the deleted object queued meanwhile calls nothing", async () => {
    let stale: ManagedObject | undefined;
    const store: ObjectStore = { get: (k, ns, n) => stale ?? kube.get(k, ns, n), list: (k) => kube.list(k) };
    const r = reconcilerFor(itemKind({}), store);
    apply({ secret: "s0" });
    await r.reconcile(NS, "i");
    kube.delete("Item", NS, "i");
    stale = structuredClone(obj());
    await r.reconcile(NS, "i");
    expect(kube.get("Item", NS, "i")).toBeUndefined();
    service.calls.length = 0;
    // The informer still shows the object with its finalizer and deletionTimestamp.
    expect(await r.reconcile(NS, "i")).toEqual({});
    expect(service.calls).toEqual([]);
  });
});

describe("nulls in atProvider (a merge patch cannot store them)", () => {
  const withNull = (): ManagedKind<Spec, Desired, Observed, ItemService> => ({
    ...itemKind({}),
    atProvider: (o) => ({
      name: o.name,
      description: null,
      nested: { a: 1, b: null },
      list: [{ c: null }, null],
    }),
  });

  it("are left out of status, so an in-sync object writes no status again", async () => {
    const r = reconcilerFor(withNull());
    apply({ secret: "s0" });
    await r.reconcile(NS, "i");
    // Arrays are stored as sent (a merge patch replaces them whole).
    expect(obj().status?.atProvider).toEqual({ name: "i", nested: { a: 1 }, list: [{ c: null }, null] });
    const writes = kube.writes.length;
    await r.reconcile(NS, "i");
    expect(kube.writes.slice(writes)).toEqual([]);
  });

  it("do not make the index observer see drift on every resync", async () => {
    const kind = {
      ...withNull(),
      index: { scope: () => "", list: async (c: ItemService) => [...c.items.values()] },
    };
    const r = reconcilerFor(kind);
    apply({ secret: "s0" });
    await r.reconcile(NS, "i");
    const queued: string[] = [];
    const observer = new IndexObserver({
      kinds: [kind as never],
      store: kube,
      accounts: { get: () => ({ client: service }) },
      observations: new Observations(() => 0),
      enqueue: (k) => queued.push(k),
      log: pino({ level: "silent" }),
    });
    const [report] = await observer.resync();
    expect(report).toMatchObject({ checked: 1, drifted: 0, missing: 0 });
    expect(queued).toEqual([]);
  });
});
