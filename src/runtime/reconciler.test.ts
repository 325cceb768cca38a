import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getCondition } from "./conditions.ts";
import type { EventSink } from "./events.ts";
import { FakeClock } from "./fake-clock.ts";
import { FakeKube } from "./fake-kube.ts";
import type { ManagedKind, ManagedObject } from "./kind.ts";
import { Annotation, FINALIZER, objectKey } from "./names.ts";
import { OwnerIndex } from "./owners.ts";
import { type AccountClients, ManagedReconciler } from "./reconciler.ts";
import { ReferenceIndex } from "./references.ts";
import { managedSpec, ref } from "./spec.ts";

/** A toy service holding widgets, counting every call. */
class WidgetService {
  readonly objects = new Map<string, { href: string; name: string; size: number; color: string }>();
  readonly calls: string[] = [];
  next = 1;
  failNext: { op: string; error: Error; commit?: boolean } | undefined;
  onCreate?: () => void;

  private maybeFail(op: string, commit: () => void = () => {}): void {
    if (this.failNext?.op === op) {
      const f = this.failNext;
      this.failNext = undefined;
      if (f.commit) commit();
      throw f.error;
    }
  }
  show(href: string) {
    this.calls.push(`show ${href}`);
    this.maybeFail("show");
    const o = this.objects.get(href);
    return o ? { ...o } : undefined;
  }
  list(name?: string) {
    this.calls.push(`index${name ? ` ${name}` : ""}`);
    return [...this.objects.values()]
      .filter((o) => name === undefined || o.name === name)
      .map((o) => ({ ...o }));
  }
  create(d: { name: string; size: number; color: string }) {
    this.calls.push(`create ${d.name}`);
    this.onCreate?.();
    const href = `/api/widgets/${this.next++}`;
    const commit = () => this.objects.set(href, { href, ...d });
    this.maybeFail("create", commit);
    commit();
    return href;
  }
  update(href: string, fields: Record<string, unknown>) {
    this.calls.push(`update ${href} ${Object.keys(fields).join(",")}`);
    this.maybeFail("update");
    Object.assign(this.objects.get(href)!, fields);
  }
  destroy(href: string) {
    this.calls.push(`destroy ${href}`);
    this.objects.delete(href);
  }
}

type Desired = { name: string; size: number; color: string; partHref?: string };
type Observed = { href: string; name: string; size: number; color: string };

const widgetKind: ManagedKind<
  { name?: string; size: number; color: string; partRef?: { name: string } },
  Desired,
  Observed,
  WidgetService
> = {
  kind: "Widget",
  plural: "widgets",
  singular: "widget",
  shortNames: ["wdg"],
  description: "test",
  schema: managedSpec({
    name: z.string().optional(),
    size: z.number().int().min(1),
    color: z.enum(["red", "blue"]).default("red"),
    partRef: ref("Widget").optional(),
  }) as never,
  references: (s) => (s.partRef ? [{ field: "partRef", kind: "Widget", name: s.partRef.name }] : []),
  desired: (s, ctx) => ({
    name: s.name ?? ctx.meta.name,
    size: s.size,
    color: s.color,
    partHref: ctx.refs.partRef?.href,
  }),
  observe: async (c, href) => c.show(href),
  lookup: async (c, d) => c.list(d.name),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create({ name: d.name, size: d.size, color: d.color }),
  update: async (c, href, d, _o, diff) => {
    const fields: Record<string, unknown> = {};
    for (const f of diff) fields[f.field] = d[f.field as keyof Desired];
    c.update(href, fields);
  },
  delete: async (c, href) => c.destroy(href),
  diff: (d, o) =>
    (["name", "size", "color"] as const)
      .filter((f) => d[f] !== o[f])
      .map((f) => ({ field: f, desired: d[f], observed: o[f] })),
  immutable: ["size"],
  atProvider: (o) => ({ name: o.name, size: o.size, color: o.color }),
};

class ApiLikeError extends Error {
  readonly kind: string;
  constructor(message: string, kind: string) {
    super(message);
    this.kind = kind;
  }
}

let kube: FakeKube;
let service: WidgetService;
let events: { reason: string; type: string; message: string }[];
let accountReady: boolean;
let accountPending: boolean;
let reconciler: ManagedReconciler;
let refs: ReferenceIndex;
let owners: OwnerIndex;
let clock: FakeClock;
const NS = "team-a";

beforeEach(() => {
  kube = new FakeKube();
  service = new WidgetService();
  events = [];
  accountReady = true;
  accountPending = false;
  refs = new ReferenceIndex();
  owners = new OwnerIndex();
  // The owner index fed as the operator's informer handlers feed it.
  kube.onChange = (kind, o, old) => {
    if (o) owners.set(kind, o);
    else if (old) owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name));
  };
  clock = new FakeClock();
  const sink: EventSink = { emit: (_o, _k, type, reason, message) => events.push({ type, reason, message }) };
  const accounts: AccountClients = {
    get: () =>
      accountPending
        ? { notReady: "credentials not verified yet", pending: true }
        : accountReady
          ? { client: service }
          : { notReady: "credentials rejected" },
  };
  reconciler = new ManagedReconciler(widgetKind, {
    store: kube,
    kube,
    accounts,
    refs,
    owners,
    events: sink,
    clock,
    log: pino({ level: "silent" }),
    isTerminalApiError: (e) => e instanceof ApiLikeError && e.kind === "invalid",
    isOutcomeUnknown: (e) => e instanceof ApiLikeError && e.kind === "outcomeUnknown",
  });
});

function apply(
  name: string,
  spec: Record<string, unknown>,
  metadata: Partial<ManagedObject["metadata"]> = {},
): void {
  const old = kube.get("Widget", NS, name);
  kube.put("Widget", {
    metadata: { ...(old?.metadata ?? {}), name, namespace: NS, ...metadata },
    spec,
  });
}

function obj(name = "w") {
  return kube.get("Widget", NS, name)!;
}
function cond(type: string, name = "w") {
  return getCondition(obj(name).status?.conditions, type);
}

describe("ManagedReconciler: create and observe", () => {
  it("adds the finalizer, writes create-pending before the create, records the href, becomes Ready", async () => {
    apply("w", { size: 1 });
    let pendingAtCreate: string | undefined;
    service.onCreate = () => {
      pendingAtCreate = obj().metadata.annotations?.[Annotation.createPending];
    };
    const r = await reconciler.reconcile(NS, "w");
    expect(r).toMatchObject({ outcome: "ready" });
    expect(pendingAtCreate).toBeDefined();
    expect(obj().metadata.finalizers).toEqual([FINALIZER]);
    expect(obj().metadata.annotations?.[Annotation.href]).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(obj().status?.href).toBe("/api/widgets/1");
    expect(obj().status?.atProvider).toEqual({ name: "w", size: 1, color: "red" });
    expect(obj().status?.observedGeneration).toBe(1);
    expect(cond("Ready")).toMatchObject({ status: "True", reason: "Available" });
    expect(cond("Synced")?.status).toBe("True");
    expect(cond("Stalled")?.status).toBe("False");
    expect(cond("Reconciling")?.status).toBe("False");
    // No Event for a create: status (href, Ready) and the audit trail say it.
    expect(events).toEqual([]);
    expect(service.calls).toEqual(["create w", "show /api/widgets/1"]);
  });

  it("a create writes three times: intent (finalizer, create-pending), the href annotation, then the status with it", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    const writes = kube.writes.map((w) => ({
      op: w.op,
      patch: w.patch as Record<string, Record<string, unknown>>,
    }));
    expect(writes.map((w) => w.op)).toEqual(["metadata", "metadata", "status"]);
    expect(writes[0]!.patch.finalizers).toEqual([FINALIZER]);
    expect(writes[0]!.patch.annotations?.[Annotation.createPending]).toBeDefined();
    expect(writes[1]!.patch.annotations).toEqual({
      [Annotation.href]: "/api/widgets/1",
      [Annotation.createPending]: null,
    });
    // The status write carries the href and the final conditions at once: Ready is never seen
    // before the annotation.
    expect(writes[2]!.patch).toMatchObject({ href: "/api/widgets/1", observedGeneration: 1 });
  });

  it("the annotation write fails: the status with the href is still written, and the reconcile retries", async () => {
    apply("w", { size: 1 });
    const write = kube.patchUnread.bind(kube);
    let failed = false;
    kube.patchUnread = async (ref, patch) => {
      if ("metadata" in patch && !failed) {
        failed = true;
        throw new Error("apiserver unavailable");
      }
      return write(ref, patch);
    };
    expect(await reconciler.reconcile(NS, "w")).toMatchObject({ retry: true });
    expect(obj().status?.href).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeDefined();
    await reconciler.reconcile(NS, "w");
    expect(obj().metadata.annotations?.[Annotation.href]).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(service.calls.filter((c) => c.startsWith("create") || c.startsWith("index"))).toEqual([
      "create w",
    ]);
  });

  it("a create whose show fails still records the href (status, then annotation) and retries", async () => {
    apply("w", { size: 1 });
    service.failNext = { op: "show", error: new Error("503 from the service") };
    const first = await reconciler.reconcile(NS, "w");
    expect(first.retry).toBe(true);
    expect(obj().status?.href).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.href]).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    await reconciler.reconcile(NS, "w");
    expect(cond("Ready")?.status).toBe("True");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual(["create w"]);
  });

  it("a status with the href but no annotation (a write that failed): the next reconcile writes the annotation, creates nothing", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    // The annotation write lost: the status has the href, the pending annotation stands.
    const o = obj();
    kube.put("Widget", {
      ...o,
      metadata: { ...o.metadata, annotations: { [Annotation.createPending]: "2026-01-01T00:00:00.000Z" } },
    });
    events.length = 0;
    await reconciler.reconcile(NS, "w");
    expect(obj().metadata.annotations?.[Annotation.href]).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(service.calls.filter((c) => c.startsWith("create") || c.startsWith("index"))).toEqual([
      "create w",
    ]);
    expect(events.map((e) => e.reason)).not.toContain("Adopted");
  });

  it("a crash between the annotation write and the status write: the next reconcile records the href in status, creates nothing", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    const o = obj();
    kube.put("Widget", { ...o, status: {} });
    await reconciler.reconcile(NS, "w");
    expect(obj().status?.href).toBe("/api/widgets/1");
    expect(cond("Ready")?.status).toBe("True");
    expect(service.calls.filter((c) => c.startsWith("create") || c.startsWith("index"))).toEqual([
      "create w",
    ]);
  });

  it("a second reconcile of an in-sync object makes one observe call and writes nothing", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    const before = obj().status?.conditions?.map((c) => c.lastTransitionTime);
    const writes = kube.writes.length;
    service.calls.length = 0;
    await reconciler.reconcile(NS, "w");
    expect(service.calls).toEqual(["show /api/widgets/1"]);
    expect(kube.writes.length).toBe(writes);
    expect(obj().status?.conditions?.map((c) => c.lastTransitionTime)).toEqual(before);
  });

  it("updates only the fields that differ, with an Updated event", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    apply("w", { size: 1, color: "blue" });
    service.calls.length = 0;
    await reconciler.reconcile(NS, "w");
    expect(service.calls).toEqual([
      "show /api/widgets/1",
      "update /api/widgets/1 color",
      "show /api/widgets/1",
    ]);
    expect(events.at(-1)).toMatchObject({ reason: "Updated" });
    expect(obj().status?.observedGeneration).toBe(2);
  });

  it("calls a change made outside the operator drift", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    service.objects.get("/api/widgets/1")!.color = "blue";
    await reconciler.reconcile(NS, "w");
    expect(events.at(-1)).toMatchObject({ reason: "DriftCorrected" });
    expect(service.objects.get("/api/widgets/1")!.color).toBe("red");
  });

  it("re-creates an object deleted outside the operator (event Recreated)", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    service.objects.clear();
    await reconciler.reconcile(NS, "w");
    expect(events.at(-1)).toMatchObject({ reason: "Recreated" });
    expect(obj().status?.href).toBe("/api/widgets/2");
    expect(service.objects.size).toBe(1);
  });

  it("echoes reconcile-requested-at in status.lastHandledReconcileAt", async () => {
    apply("w", { size: 1 }, { annotations: { [Annotation.reconcileRequestedAt]: "now-1" } });
    await reconciler.reconcile(NS, "w");
    expect(obj().status?.lastHandledReconcileAt).toBe("now-1");
  });
});

describe("ManagedReconciler: failures", () => {
  it("an invalid spec is Stalled with a field-naming message and makes no API call", async () => {
    apply("w", { size: 0, color: "green" });
    const r = await reconciler.reconcile(NS, "w");
    expect(r.outcome).toBe("terminal");
    expect(r.retry).toBe(false);
    expect(cond("Stalled")).toMatchObject({ status: "True", reason: "InvalidSpec" });
    expect(cond("Ready")?.message).toMatch(/spec\.size: .*; spec\.color: /);
    expect(service.calls).toEqual([]);
    expect(events.map((e) => e.reason)).toEqual(["InvalidSpec"]);
    // Repeating the reconcile does not repeat the event.
    await reconciler.reconcile(NS, "w");
    expect(events.length).toBe(1);
  });

  it("waits with DependencyNotReady when the Account is not ready, without API calls", async () => {
    accountReady = false;
    apply("w", { size: 1 });
    const r = await reconciler.reconcile(NS, "w");
    expect(r.outcome).toBe("waiting");
    expect(cond("Ready")).toMatchObject({ status: "False", reason: "DependencyNotReady" });
    expect(cond("Ready")?.message).toContain("Account default is not ready: credentials rejected");
    expect(cond("Reconciling")?.status).toBe("True");
    expect(service.calls).toEqual([]);
  });

  it("parks while the Account's first check runs: no status write, no event, no call; the reference is indexed", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    expect(cond("Ready")?.status).toBe("True");
    // An operator restart: the Account is checked again before anything proceeds.
    accountPending = true;
    service.calls.length = 0;
    events.length = 0;
    const writes = kube.writes.length;
    const r = await reconciler.reconcile(NS, "w");
    expect(r.outcome).toBe("waiting");
    expect(kube.writes.length).toBe(writes);
    expect(cond("Ready")?.status).toBe("True");
    expect(events).toEqual([]);
    expect(service.calls).toEqual([]);
    expect(refs.dependents(`Account/${NS}/default`)).toEqual([`Widget/${NS}/w`]);
  });

  it("waits for a referenced object to be Ready and indexes the reference", async () => {
    apply("child", { size: 1, partRef: { name: "parent" } });
    await reconciler.reconcile(NS, "child");
    expect(cond("Ready", "child")?.message).toBe("waiting for spec.partRef: Widget parent (not found)");
    expect(refs.dependents(`Widget/${NS}/parent`)).toEqual([`Widget/${NS}/child`]);
    apply("parent", { size: 1 });
    await reconciler.reconcile(NS, "parent");
    await reconciler.reconcile(NS, "child");
    expect(cond("Ready", "child")?.status).toBe("True");
  });

  it("keeps Ready on a transient error and asks for a retry", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    service.failNext = { op: "show", error: new ApiLikeError("GET -> 503", "retryable") };
    const r = await reconciler.reconcile(NS, "w");
    expect(r.retry).toBe(true);
    expect(cond("Ready")?.status).toBe("True");
    expect(cond("Synced")).toMatchObject({ status: "False", reason: "ReconcileError" });
  });

  it("a terminal service error is Stalled", async () => {
    apply("w", { size: 1 });
    service.failNext = { op: "create", error: new ApiLikeError("POST -> 400 bad size", "invalid") };
    const r = await reconciler.reconcile(NS, "w");
    expect(r.outcome).toBe("terminal");
    expect(cond("Stalled")).toMatchObject({ status: "True", reason: "ApiError" });
  });

  it("a change of an immutable field is Stalled naming it", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    apply("w", { size: 2 });
    await reconciler.reconcile(NS, "w");
    expect(cond("Stalled")).toMatchObject({ status: "True", reason: "ImmutableField" });
    expect(cond("Stalled")?.message).toContain("spec.size cannot be changed");
    expect(service.calls.filter((c) => c.startsWith("update"))).toEqual([]);
  });

  it("a metadata conflict retries without writing status", async () => {
    apply("w", { size: 1 });
    const original = kube.patchMetadata.bind(kube);
    kube.patchMetadata = async (ref, patch) => {
      kube.patchMetadata = original;
      return original(ref, patch, "stale");
    };
    const r = await reconciler.reconcile(NS, "w");
    expect(r.retry).toBe(true);
    expect(obj().status).toBeUndefined();
  });
});

describe("ManagedReconciler: objects the service shows as not ready yet", () => {
  it("polls them as long as they have been so: 1 s, 1 s, 2 s, 4 s ... up to 30 s, then Ready", async () => {
    const pending = new ManagedReconciler(
      { ...widgetKind, notReady: (o: Observed) => (o.color === "blue" ? "widget is pending" : undefined) },
      {
        store: kube,
        kube,
        accounts: { get: () => ({ client: service }) },
        refs,
        owners,
        events: { emit() {} },
        clock,
        log: pino({ level: "silent" }),
      },
    );
    apply("w", { size: 1, color: "blue" });
    const delays: (number | undefined)[] = [];
    for (const step of [0, 1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000]) {
      clock.advance(step);
      const r = await pending.reconcile(NS, "w");
      expect(r.outcome).toBe("progressing");
      delays.push(r.requeueAfterMs);
    }
    expect(delays).toEqual([1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(cond("Ready")?.message).toBe("widget is pending");
    service.objects.get("/api/widgets/1")!.color = "red";
    apply("w", { size: 1, color: "red" });
    expect((await pending.reconcile(NS, "w")).outcome).toBe("ready");
    // Pending again later: the schedule starts over.
    service.objects.get("/api/widgets/1")!.color = "blue";
    apply("w", { size: 1, color: "blue" });
    expect((await pending.reconcile(NS, "w")).requeueAfterMs).toBe(1_000);
  });
});

describe("ManagedReconciler: no duplicates", () => {
  it("a create whose answer was lost is found by lookup on the next reconcile", async () => {
    apply("w", { size: 1 });
    service.failNext = {
      op: "create",
      error: new ApiLikeError("outcome unknown", "outcomeUnknown"),
      commit: true,
    };
    const first = await reconciler.reconcile(NS, "w");
    expect(first.retry).toBe(true);
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeDefined();
    await reconciler.reconcile(NS, "w");
    expect(service.objects.size).toBe(1);
    expect(obj().status?.href).toBe("/api/widgets/1");
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(events.map((e) => e.reason)).toContain("CreatePendingResolved");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual(["create w"]);
  });

  it("a pending create with no match creates", async () => {
    apply("w", { size: 1 }, { annotations: { [Annotation.createPending]: "2026-01-01T00:00:00Z" } });
    await reconciler.reconcile(NS, "w");
    expect(service.calls).toEqual(["index w", "create w", "show /api/widgets/1"]);
  });

  it("a pending create does not adopt what another custom resource holds (a same-named object of another namespace)", async () => {
    // team-b's "w" is Ready on /api/widgets/1; team-a's "w" crashed before its create.
    kube.put("Widget", {
      metadata: { name: "w", namespace: "team-b", annotations: { [Annotation.href]: "/api/widgets/1" } },
      spec: { size: 1 },
      status: { href: "/api/widgets/1" },
    });
    service.objects.set("/api/widgets/1", { href: "/api/widgets/1", name: "w", size: 1, color: "red" });
    service.next = 2;
    apply("w", { size: 1 }, { annotations: { [Annotation.createPending]: "x" } });
    await reconciler.reconcile(NS, "w");
    expect(obj().status?.href).toBe("/api/widgets/2");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual(["create w"]);
    expect(events.map((e) => e.reason)).not.toContain("CreatePendingResolved");
  });

  it("a pending create with two candidates is Stalled naming both, and creates nothing", async () => {
    service.objects.set("/api/widgets/8", { href: "/api/widgets/8", name: "w", size: 1, color: "red" });
    service.objects.set("/api/widgets/9", { href: "/api/widgets/9", name: "w", size: 1, color: "red" });
    apply("w", { size: 1 }, { annotations: { [Annotation.createPending]: "x" } });
    await reconciler.reconcile(NS, "w");
    expect(cond("Stalled")).toMatchObject({ status: "True", reason: "AmbiguousCreate" });
    expect(cond("Stalled")?.message).toContain("/api/widgets/8, /api/widgets/9");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual([]);
  });
});

describe("ManagedReconciler: adoption, ObserveOnly, paused", () => {
  it("adopts an existing object named by the href annotation", async () => {
    service.objects.set("/api/widgets/5", { href: "/api/widgets/5", name: "old", size: 1, color: "red" });
    apply("w", { size: 1, name: "w" }, { annotations: { [Annotation.href]: "/api/widgets/5" } });
    await reconciler.reconcile(NS, "w");
    expect(events.map((e) => e.reason)).toEqual(["Adopted", "Updated"]);
    expect(service.objects.get("/api/widgets/5")?.name).toBe("w");
    expect(service.calls.filter((c) => c.startsWith("create"))).toEqual([]);
  });

  it("ObserveOnly reports atProvider and never writes", async () => {
    service.objects.set("/api/widgets/5", { href: "/api/widgets/5", name: "other", size: 3, color: "blue" });
    apply(
      "w",
      { size: 1, managementPolicy: "ObserveOnly" },
      { annotations: { [Annotation.href]: "/api/widgets/5" } },
    );
    await reconciler.reconcile(NS, "w");
    expect(cond("Ready")?.status).toBe("True");
    expect(obj().status?.atProvider).toEqual({ name: "other", size: 3, color: "blue" });
    expect(obj().metadata.finalizers ?? []).toEqual([]);
    expect(service.calls).toEqual(["show /api/widgets/5"]);
  });

  it("ObserveOnly without an href is InvalidSpec", async () => {
    apply("w", { size: 1, managementPolicy: "ObserveOnly" });
    await reconciler.reconcile(NS, "w");
    expect(cond("Stalled")?.message).toContain(
      "spec.managementPolicy: ObserveOnly needs the cloud.svc.io/href annotation",
    );
  });

  it("paused: no calls, Synced=False Paused; deleting while paused leaves the external object", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    apply(
      "w",
      { size: 1, color: "blue" },
      { annotations: { ...obj().metadata.annotations, [Annotation.paused]: "true" } },
    );
    service.calls.length = 0;
    await reconciler.reconcile(NS, "w");
    expect(service.calls).toEqual([]);
    expect(cond("Synced")).toMatchObject({ status: "False", reason: "Paused" });
    kube.delete("Widget", NS, "w");
    await reconciler.reconcile(NS, "w");
    expect(kube.get("Widget", NS, "w")).toBeUndefined();
    expect(service.objects.size).toBe(1);
  });
});

describe("ManagedReconciler: deletion", () => {
  it("deletes the external object then drops the finalizer", async () => {
    apply("w", { size: 1 });
    await reconciler.reconcile(NS, "w");
    kube.delete("Widget", NS, "w");
    await reconciler.reconcile(NS, "w");
    expect(service.objects.size).toBe(0);
    expect(kube.get("Widget", NS, "w")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ reason: "Deleted" });
  });

  it("Orphan leaves the external object", async () => {
    apply("w", { size: 1, deletionPolicy: "Orphan" });
    await reconciler.reconcile(NS, "w");
    kube.delete("Widget", NS, "w");
    await reconciler.reconcile(NS, "w");
    expect(service.objects.size).toBe(1);
    expect(service.calls.filter((c) => c.startsWith("destroy"))).toEqual([]);
    expect(kube.get("Widget", NS, "w")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ reason: "Orphaned" });
  });

  it("waits with DeletionBlocked while dependents exist", async () => {
    apply("parent", { size: 1 });
    await reconciler.reconcile(NS, "parent");
    apply("child", { size: 1, partRef: { name: "parent" } });
    await reconciler.reconcile(NS, "child");
    kube.delete("Widget", NS, "parent");
    await reconciler.reconcile(NS, "parent");
    expect(cond("Ready", "parent")).toMatchObject({ status: "False", reason: "DeletionBlocked" });
    expect(cond("Ready", "parent")?.message).toBe(
      "still used by 1 resource not being deleted: Widget child; delete it or change its references to Widget parent",
    );
    kube.delete("Widget", NS, "child");
    await reconciler.reconcile(NS, "child");
    await reconciler.reconcile(NS, "parent");
    expect(kube.get("Widget", NS, "parent")).toBeUndefined();
    expect(service.objects.size).toBe(0);
  });

  it("a pending create is looked up before the finalizer goes, so nothing leaks", async () => {
    apply("w", { size: 1 });
    service.failNext = {
      op: "create",
      error: new ApiLikeError("outcome unknown", "outcomeUnknown"),
      commit: true,
    };
    await reconciler.reconcile(NS, "w");
    kube.delete("Widget", NS, "w");
    await reconciler.reconcile(NS, "w");
    expect(service.objects.size).toBe(0);
    expect(kube.get("Widget", NS, "w")).toBeUndefined();
  });
});
