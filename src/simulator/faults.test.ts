import { describe, expect, it } from "vitest";
import { FaultInjector, faultsSchema } from "./faults.ts";

describe("faultsSchema", () => {
  it("accepts the documented fields and {} ; refuses others and out-of-range values", () => {
    expect(faultsSchema.safeParse({}).success).toBe(true);
    expect(
      faultsSchema.safeParse({
        latencyMs: 10,
        jitterMs: 5,
        error500: 0.1,
        error503: 0,
        throttle429: 1,
        reset: 0.5,
        commitThenDrop: 0.2,
      }).success,
    ).toBe(true);
    expect(faultsSchema.safeParse({ error503: 1.5 }).success).toBe(false);
    expect(faultsSchema.safeParse({ latencyMs: 1.5 }).success).toBe(false);
    expect(faultsSchema.safeParse({ boom: 1 }).success).toBe(false);
  });
});

describe("FaultInjector", () => {
  it("decides by the injected random source", () => {
    let next = 0.3;
    const f = new FaultInjector(() => next);
    expect(f.active).toBe(false);
    f.set({ error500: 0.5 });
    expect(f.active).toBe(true);
    expect(f.before()).toMatchObject({ kind: "status", status: 500 });
    next = 0.7;
    expect(f.before()).toEqual({ kind: "none" });
  });

  it("checks reset first, then 500, 503, 429 with Retry-After", () => {
    const f = new FaultInjector(() => 0);
    f.set({ reset: 1, error500: 1 });
    expect(f.before()).toEqual({ kind: "reset" });
    f.set({ error503: 1, throttle429: 1 });
    expect(f.before()).toMatchObject({ status: 503 });
    f.set({ throttle429: 1 });
    expect(f.before()).toMatchObject({ status: 429, headers: { "retry-after": "1" } });
    f.set({ throttle429: 1, retryAfterSeconds: 7 });
    expect(f.before()).toMatchObject({ headers: { "retry-after": "7" } });
  });

  it("adds jitter on top of latency; commitThenDrop; clear", () => {
    const f = new FaultInjector(() => 0.999);
    f.set({ latencyMs: 100, jitterMs: 10, commitThenDrop: 1 });
    expect(f.delayMs()).toBe(110);
    expect(f.dropAfterCommit()).toBe(true);
    f.clear();
    expect(f.current).toEqual({});
    expect(f.dropAfterCommit()).toBe(false);
    expect(f.delayMs()).toBe(0);
  });
});
