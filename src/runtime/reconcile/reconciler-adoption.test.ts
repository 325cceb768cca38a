import { beforeEach, describe, expect, it } from "vitest";
import { Annotation } from "../sdk/index.ts";
import { apply, cond, events, kube, NS, obj, reconciler, service, setUpWidgets } from "../testing/index.ts";

beforeEach(() => setUpWidgets());

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
