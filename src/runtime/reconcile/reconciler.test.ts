import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { Annotation, FINALIZER } from "../sdk/index.ts";
import {
  apply,
  clock,
  cond,
  events,
  kube,
  NS,
  type Observed,
  obj,
  owners,
  reconciler,
  refs,
  service,
  setUpWidgets,
  widgetKind,
} from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

// Creating and observing a Widget (reconciler-widgets.ts); failures, duplicates, adoption and
// deletion are in reconciler-<topic>.test.ts.

beforeEach(() => setUpWidgets());

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

describe("ManagedReconciler: objects the service shows as not ready yet", () => {
  it("polls them every 250 ms for 2 s, then as long as they have been so: 2 s, 4 s ... up to 30 s, then Ready", async () => {
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
    const delays: number[] = [];
    for (let i = 0; i < 14; i++) {
      clock.advance(delays.at(-1) ?? 0);
      const r = await pending.reconcile(NS, "w");
      expect(r.outcome).toBe("progressing");
      delays.push(r.requeueAfterMs!);
    }
    // Every 250 ms for its first 2 s, then after as long as it has been so, at most 30 s.
    expect(delays).toEqual([...Array(8).fill(250), 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(cond("Ready")?.message).toBe("widget is pending");
    service.objects.get("/api/widgets/1")!.color = "red";
    apply("w", { size: 1, color: "red" });
    expect((await pending.reconcile(NS, "w")).outcome).toBe("ready");
    // Pending again later: the schedule starts over.
    service.objects.get("/api/widgets/1")!.color = "blue";
    apply("w", { size: 1, color: "blue" });
    expect((await pending.reconcile(NS, "w")).requeueAfterMs).toBe(250);
    // A look that ends 40 ms past a step of the grid takes the next step, 210 ms on, not the one after.
    clock.advance(290);
    expect((await pending.reconcile(NS, "w")).requeueAfterMs).toBe(210);
  });
});
