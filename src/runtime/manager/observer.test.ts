import { describe, expect, it } from "vitest";
import { widgetsInSync as setup } from "./observer.testing.ts";
import { Observations } from "./observer.ts";

describe("IndexObserver", () => {
  it.each([10, 1000])("one index call per account for %i in-sync objects, nothing queued", async (n) => {
    const s = setup(n);
    const [report] = await s.observer.resync();
    expect(s.calls).toEqual(["index"]);
    expect(report).toMatchObject({ calls: 1, checked: n, drifted: 0, missing: 0 });
    expect(s.queued).toEqual([]);
  });

  it("groups by namespace (accounts never shared) and queues drifted and missing objects with their observation", async () => {
    const s = setup(6, 2);
    s.service.get("/api/widgets/2")!.size = 9;
    s.service.delete("/api/widgets/3");
    const [report] = await s.observer.resync();
    expect(report).toMatchObject({ groups: 2, calls: 2, drifted: 1, missing: 1 });
    expect(s.queued.sort()).toEqual(["Widget/ns0/w2", "Widget/ns1/w3"]);
    expect(s.observations.take("Widget/ns0/w2", "/api/widgets/2")).toEqual({
      href: "/api/widgets/2",
      size: 9,
    });
    expect(s.observations.take("Widget/ns0/w2", "/api/widgets/2")).toBeUndefined();
  });
});

describe("IndexObserver: contents no custom resource manages", () => {
  it("an object reporting them is looked at again each resync, with its observation; the others are not", async () => {
    const s = setup(3);
    const o = s.kube.get("Widget", "ns0", "w1")!;
    o.status!.conditions![0]!.reason = "UnmanagedContents";
    const [report] = await s.observer.resync();
    expect(report).toMatchObject({ calls: 1, checked: 3, drifted: 0, rechecked: 1 });
    expect(s.queued).toEqual(["Widget/ns0/w1"]);
    expect(s.observations.take("Widget/ns0/w1", "/api/widgets/1")).toEqual({
      href: "/api/widgets/1",
      size: 1,
    });
  });
});

describe("Observations", () => {
  it("hands an observation to one reconcile and drops those no reconcile took in time", () => {
    let now = 0;
    const o = new Observations(() => now, 1000);
    o.put("Widget/ns/a", "/api/widgets/1", { size: 1 });
    o.put("Widget/ns/b", "/api/widgets/2", { size: 2 });
    now = 500;
    o.put("Widget/ns/c", "/api/widgets/3", { size: 3 });
    expect(o.take("Widget/ns/a", "/api/widgets/1")).toEqual({ size: 1 });
    now = 1200;
    o.prune();
    expect(o.size).toBe(1);
    expect(o.take("Widget/ns/c", "/api/widgets/3")).toEqual({ size: 3 });
  });

  it("refuses an observation read before the operator's own write of the object (an index call in flight meanwhile)", () => {
    let now = 0;
    const o = new Observations(() => now, 1000);
    const readAt = o.time();
    now = 10;
    o.wrote("Widget/ns/a");
    now = 20;
    o.put("Widget/ns/a", "/api/widgets/1", { size: 1 }, readAt);
    expect(o.take("Widget/ns/a", "/api/widgets/1")).toBeUndefined();
    // Read after the write: taken.
    o.put("Widget/ns/a", "/api/widgets/1", { size: 2 }, o.time());
    expect(o.take("Widget/ns/a", "/api/widgets/1")).toEqual({ size: 2 });
    // Written while an observation waits: dropped.
    o.put("Widget/ns/a", "/api/widgets/1", { size: 3 }, o.time());
    now = 30;
    o.wrote("Widget/ns/a");
    expect(o.take("Widget/ns/a", "/api/widgets/1")).toBeUndefined();
    // The record of the write goes with the object, or after the observations' lifetime.
    expect(o.footprint()["observations.writes"]?.entries).toBe(1);
    o.drop("Widget/ns/a");
    expect(o.footprint()["observations.writes"]?.entries).toBe(0);
  });
});
