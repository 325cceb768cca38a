import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { type AuditBatch, type AuditSink, AuditTrail } from "../audit/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, getCondition, managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A toy service: `label` updates in place, `zone` only by replacing, `secret` is write-only. */
class Service {
  readonly objects = new Map<string, { href: string; name: string; zone: string; label: string }>();
  readonly calls: string[] = [];
  private next = 1;
  show(href: string) {
    this.calls.push(`show ${href}`);
    const o = this.objects.get(href);
    return o && { ...o };
  }
  create(d: { name: string; zone: string; label: string }) {
    const href = `/api/things/${this.next++}`;
    this.calls.push(`create ${href}`);
    this.objects.set(href, { href, ...d });
    return href;
  }
  update(href: string, label: string) {
    this.calls.push(`update ${href}`);
    this.objects.get(href)!.label = label;
  }
  destroy(href: string) {
    this.calls.push(`destroy ${href}`);
    this.objects.delete(href);
  }
}

type S = { zone: string; label: string; secret?: string };
type D = { name: string; zone: string; label: string; secret?: string };
type O = { href: string; name: string; zone: string; label: string };

const thingKind: ManagedKind<S, D, O, Service> = {
  kind: "Thing",
  plural: "things",
  singular: "thing",
  shortNames: [],
  description: "test",
  schema: managedSpec({ zone: z.string(), label: z.string(), secret: z.string().optional() }) as never,
  references: () => [],
  desired: (s, ctx) => ({ name: ctx.meta.name, zone: s.zone, label: s.label, secret: s.secret }),
  observe: async (c, href) => c.show(href),
  lookup: async (c, d) => [...c.objects.values()].filter((o) => o.name === d.name && o.zone === d.zone),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d),
  update: async (c, href, d) => c.update(href, d.label),
  delete: async (c, href) => c.destroy(href),
  diff: (d, o) =>
    (["zone", "label"] as const)
      .filter((f) => d[f] !== o[f])
      .map((f) => ({ field: f, desired: d[f], observed: o[f] })),
  immutable: ["zone"],
  replace: "deleteBeforeCreate",
  writeOnly: (d) => ({ secret: d.secret }),
  atProvider: (o) => ({ zone: o.zone, label: o.label }),
};

const NS = "team-a";
let kube: FakeKube;
let service: Service;
/**
 * What the reconciler handed the audit trail, with what the status said at that moment; `waited`:
 * handed over to be written before the run went on (AuditSink.written), `held`: the resource was
 * still there then (its finalizer not released).
 */
let sink: {
  batches: (AuditBatch & { statusHref?: string; waited?: boolean; held?: boolean })[];
  beforeDelete: string[];
};
let reconciler: ManagedReconciler;

function build(audit: AuditSink): ManagedReconciler {
  return new ManagedReconciler(thingKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: { emit() {} },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
    audit,
  });
}

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  sink = { batches: [], beforeDelete: [] };
  reconciler = build({
    submit: (batch) => sink.batches.push({ ...batch, statusHref: obj()?.status?.href }),
    written: async (batch) => {
      sink.batches.push({
        ...batch,
        statusHref: obj()?.status?.href,
        waited: true,
        held: obj() !== undefined,
      });
    },
    beforeDelete: async (_batch, auditee) => {
      sink.beforeDelete.push(`${auditee} exists=${service.objects.has(auditee)}`);
    },
  });
});

function apply(spec: Partial<S>) {
  const old = kube.get("Thing", NS, "t");
  const merged = { zone: "a", label: "one", ...(old?.spec as S | undefined), ...spec };
  kube.put("Thing", { metadata: { ...(old?.metadata ?? {}), name: "t", namespace: NS }, spec: merged });
}
const obj = () => kube.get("Thing", NS, "t");
const thingRef = { kind: "Thing", plural: "things", namespace: NS, name: "t" };
const changes = () => sink.batches.flatMap((b) => b.changes.map((c) => ({ ...c, at: undefined })));

describe("the reconciler's audit hook: the facts of each change, handed over after the run's writes", () => {
  it("a create: one change with the spec's object fields, after the status holds the href", async () => {
    apply({ secret: "s3cret" });
    await reconciler.reconcile(NS, "t");
    const href = obj()!.status!.href!;
    expect(sink.batches).toHaveLength(1);
    const [batch] = sink.batches;
    expect(batch?.statusHref).toBe(href);
    expect(batch).toMatchObject({
      accountName: "default",
      client: service,
      known: undefined,
      context: { kind: "Thing", namespace: NS, name: "t", writeOnly: ["secret"] },
    });
    expect(batch?.context.reconcileId).toMatch(/^[0-9a-f]{8}$/);
    expect(changes()).toEqual([
      {
        action: "created",
        auditee: href,
        at: undefined,
        fields: [
          { field: "zone", new: "a" },
          { field: "label", new: "one" },
          { field: "secret", new: "s3cret" },
        ],
      },
    ]);
  });

  it("a reconcile that changes nothing hands over nothing", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    sink.batches.length = 0;
    await reconciler.reconcile(NS, "t");
    expect(sink.batches).toEqual([]);
  });

  it("an update: the fields with old and new values; the entry the status names is passed on", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const href = obj()!.status!.href!;
    kube.patchStatus(
      { kind: "Thing", plural: "things", namespace: NS, name: "t" },
      { auditEntryHref: "/api/audit_entries/5" },
    );
    sink.batches.length = 0;
    apply({ label: "two" });
    await reconciler.reconcile(NS, "t");
    expect(sink.batches[0]?.known).toEqual({ auditee: href, entry: "/api/audit_entries/5" });
    expect(changes()).toEqual([
      {
        action: "updated",
        auditee: href,
        at: undefined,
        fields: [{ field: "label", old: "one", new: "two" }],
      },
    ]);
    expect(obj()!.status?.auditEntryHref).toBe("/api/audit_entries/5");
  });

  it("a write-only field changed is an update too (its values are masked by the text)", async () => {
    apply({ secret: "one" });
    await reconciler.reconcile(NS, "t");
    sink.batches.length = 0;
    apply({ secret: "two" });
    await reconciler.reconcile(NS, "t");
    expect(sink.batches[0]?.context.writeOnly).toEqual(["secret"]);
    expect(changes()[0]).toMatchObject({
      action: "updated",
      fields: [{ field: "secret", old: "one", new: "two" }],
    });
  });

  it("a drift correction: the service changed, the spec did not", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const href = obj()!.status!.href!;
    service.objects.get(href)!.label = "by hand";
    sink.batches.length = 0;
    await reconciler.reconcile(NS, "t");
    expect(changes()).toEqual([
      {
        action: "driftCorrected",
        auditee: href,
        at: undefined,
        fields: [{ field: "label", old: "by hand", new: "one" }],
      },
    ]);
  });

  it("a delete: the entry is made sure of while the object exists, the deletion handed over after", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const href = obj()!.status!.href!;
    sink.batches.length = 0;
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    expect(obj()).toBeUndefined();
    expect(sink.beforeDelete).toEqual([`${href} exists=true`]);
    expect(changes()).toEqual([{ action: "deleted", auditee: href, at: undefined, fields: [] }]);
  });

  it("a delete is done once its line is written: handed over to be written while the resource is still there", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    sink.batches.length = 0;
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    expect(obj()).toBeUndefined();
    expect(sink.batches.map((b) => ({ waited: b.waited, held: b.held }))).toEqual([
      { waited: true, held: true },
    ]);
  });

  it("a release retried (its finalizer write conflicted) finds its object gone: no second deletion recorded", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    let conflicts = 1;
    reconciler = build({
      submit: (batch) => sink.batches.push(batch),
      written: async (batch) => {
        sink.batches.push(batch);
        // Another write to the resource meanwhile: the release's optimistic write conflicts.
        if (conflicts-- > 0) await kube.patchStatus(thingRef, { note: "another writer" });
      },
      beforeDelete: async () => {},
    });
    sink.batches.length = 0;
    kube.delete("Thing", NS, "t");
    expect(await reconciler.reconcile(NS, "t")).toMatchObject({ retry: true });
    expect(obj()).toBeDefined();
    service.calls.length = 0;
    await reconciler.reconcile(NS, "t");
    expect(obj()).toBeUndefined();
    expect(changes().map((c) => c.action)).toEqual(["deleted"]);
    // It knows the object is gone: no read of it (a real service answers that read with an error).
    expect(service.calls).toEqual([]);
  });

  it("a delete that finds its object gone already (deleted with what held it) says so, to the entry it has", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const href = obj()!.status!.href!;
    sink.batches.length = 0;
    service.objects.delete(href);
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    expect(obj()).toBeUndefined();
    expect(sink.beforeDelete).toEqual([]);
    expect(changes()).toEqual([
      {
        action: "deleted",
        auditee: href,
        at: undefined,
        fields: [],
        note: "found already gone from the service",
        foundGone: true,
      },
    ]);
    expect(sink.batches[0]).toMatchObject({ waited: true, held: true });
  });

  it("a replacement: the old object's deletion with the fields that forced it; the new object is a create", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const first = obj()!.status!.href!;
    kube.patchStatus(
      { kind: "Thing", plural: "things", namespace: NS, name: "t" },
      { auditEntryHref: "/api/audit_entries/5" },
    );
    sink.batches.length = 0;
    apply({ zone: "b" });
    await reconciler.reconcile(NS, "t");
    expect(sink.beforeDelete).toEqual([`${first} exists=true`]);
    expect(changes()).toEqual([
      {
        action: "replaced",
        auditee: first,
        at: undefined,
        fields: [{ field: "zone", old: "a", new: "b" }],
        note: expect.stringContaining("cannot be updated in place"),
      },
    ]);
    // The entry was the old object's: the status forgets it with the object.
    expect(obj()!.status?.auditEntryHref).toBeUndefined();
    await reconciler.reconcile(NS, "t");
    const second = obj()!.status!.href!;
    expect(second).not.toBe(first);
    expect(sink.batches[1]?.known).toBeUndefined();
    expect(changes()[1]).toMatchObject({ action: "created", auditee: second });
  });
});

describe("status.auditEntryHref belongs to the object at status.href", () => {
  it("is dropped when the href annotation adopts another object", async () => {
    apply({});
    await reconciler.reconcile(NS, "t");
    const ref = { kind: "Thing", plural: "things", namespace: NS, name: "t" };
    await kube.patchStatus(ref, { auditEntryHref: "/api/audit_entries/5" });
    const other = service.create({ name: "t", zone: "a", label: "other" });
    await kube.patchMetadata(ref, { annotations: { [Annotation.href]: other } });
    sink.batches.length = 0;
    await reconciler.reconcile(NS, "t");
    expect(obj()!.status?.href).toBe(other);
    expect(obj()!.status?.auditEntryHref).toBeUndefined();
    // The label is put back on the adopted object: the entry known is the other object's, unused.
    expect(sink.batches[0]?.known?.auditee).not.toBe(other);
    expect(changes()).toMatchObject([{ action: "driftCorrected", auditee: other }]);
  });
});

describe("the audit trail never affects the reconcile", () => {
  function trail(fail: boolean, errors: string[]): AuditTrail {
    const failing = async () => {
      if (fail) throw new Error("connection reset");
      return "/api/audit_entries/1";
    };
    return new AuditTrail({
      identity: "op",
      store: kube,
      kube,
      log: pino({ level: "silent" }),
      metrics: { auditError: (kind, reason) => errors.push(`${kind} ${reason}`) },
      calls: { create: failing, append: async () => void (await failing()) },
    });
  }

  it("a failing audit call: the resource is Ready all the same, the failure counted", async () => {
    const errors: string[] = [];
    const audit = trail(true, errors);
    reconciler = build(audit);
    apply({});
    const result = await reconciler.reconcile(NS, "t");
    await audit.settled();
    expect(result.outcome).toBe("ready");
    expect(getCondition(obj()?.status?.conditions, "Ready")?.status).toBe("True");
    expect(errors).toEqual(["Thing other"]);
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    await audit.settled();
    expect(obj()).toBeUndefined();
    expect(service.objects.size).toBe(0);
  });

  it("the Account's auditTrail: false makes no audit call", async () => {
    const errors: string[] = [];
    let calls = 0;
    const audit = new AuditTrail({
      identity: "op",
      store: kube,
      kube,
      log: pino({ level: "silent" }),
      calls: {
        create: async () => `/api/audit_entries/${++calls}`,
        append: async () => void calls++,
      },
    });
    kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { auditTrail: false } });
    reconciler = build(audit);
    apply({});
    await reconciler.reconcile(NS, "t");
    apply({ label: "two" });
    await reconciler.reconcile(NS, "t");
    kube.delete("Thing", NS, "t");
    await reconciler.reconcile(NS, "t");
    await audit.settled();
    expect(service.calls.filter((c) => !c.startsWith("show"))).toHaveLength(3);
    expect(calls).toBe(0);
    expect(errors).toEqual([]);
  });
});
