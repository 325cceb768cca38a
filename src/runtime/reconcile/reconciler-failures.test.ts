import { beforeEach, describe, expect, it } from "vitest";
import {
  ApiLikeError,
  apply,
  cond,
  events,
  kube,
  NS,
  obj,
  reconciler,
  refs,
  service,
  setUpWidgets,
} from "../testing/index.ts";

let accountReady: boolean;
let accountPending: boolean;

beforeEach(() => {
  accountReady = true;
  accountPending = false;
  setUpWidgets(() => ({ ready: accountReady, pending: accountPending }));
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
