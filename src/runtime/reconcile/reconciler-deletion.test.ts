import { beforeEach, describe, expect, it } from "vitest";
import {
  ApiLikeError,
  apply,
  cond,
  events,
  kube,
  NS,
  reconciler,
  service,
  setUpWidgets,
} from "../testing/index.ts";

beforeEach(() => setUpWidgets());

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
    // Nobody deletes the child: someone has to act, a Warning says so.
    expect(events.at(-1)).toMatchObject({ reason: "DeletionBlocked", type: "Warning" });
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
