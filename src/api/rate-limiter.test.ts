import { describe, expect, it } from "vitest";
import { TokenBucket } from "./rate-limiter.ts";

describe("TokenBucket", () => {
  it("lets a burst through, then spaces calls at the sustained rate, in call order", () => {
    let now = 0;
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 3 }, () => now);
    const waits = Array.from({ length: 6 }, () => bucket.reserve());
    expect(waits).toEqual([0, 0, 0, 100, 200, 300]);
    now = 1000; // refilled 10 tokens, capped at burst (3), minus the 3 reserved ahead
    expect(bucket.reserve()).toBe(0);
  });

  it("never admits more than burst + rate * elapsed calls", () => {
    let now = 0;
    const rate = 5;
    const burst = 4;
    const bucket = new TokenBucket({ ratePerSecond: rate, burst }, () => now);
    const sendTimes: number[] = [];
    for (let i = 0; i < 200; i++) {
      now += 13; // callers arrive much faster than the rate
      sendTimes.push(now + bucket.reserve());
    }
    for (const t of sendTimes) {
      const admitted = sendTimes.filter((s) => s <= t).length;
      expect(admitted).toBeLessThanOrEqual(burst + Math.ceil((rate * t) / 1000));
    }
  });

  it("refills after idle time, capped at burst", () => {
    let now = 0;
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 2 }, () => now);
    bucket.reserve();
    bucket.reserve();
    now = 60_000;
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 1000]);
  });

  it("rejects a nonsensical configuration naming the field", () => {
    expect(() => new TokenBucket({ ratePerSecond: 0, burst: 1 })).toThrow(/ratePerSecond/);
    expect(() => new TokenBucket({ ratePerSecond: 1, burst: 0 })).toThrow(/burst/);
  });
});
