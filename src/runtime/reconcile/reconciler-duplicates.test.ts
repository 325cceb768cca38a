import { beforeEach, describe, expect, it } from "vitest";
import { Annotation } from "../sdk/index.ts";
import {
  ApiLikeError,
  apply,
  cond,
  events,
  kube,
  NS,
  obj,
  reconciler,
  service,
  setUpWidgets,
} from "../testing/index.ts";

beforeEach(() => setUpWidgets());

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
