import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY, isIdempotentMethod, nextRetryDelay, parseRetryAfter } from "./retry.ts";

const options = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, maxElapsedMs: 10_000 };

describe("backoffDelay (full jitter)", () => {
  it("draws uniformly below an exponentially growing ceiling", () => {
    expect(backoffDelay(1, options, () => 0.999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.999)).toBe(199);
    expect(backoffDelay(3, options, () => 0.999)).toBe(399);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
    expect(backoffDelay(3, options, () => 0.5)).toBe(200);
  });
  it("never exceeds maxDelayMs", () => {
    expect(backoffDelay(30, options, () => 0.999)).toBe(999);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    { reason: "delta seconds", value: "3", expected: 3000 },
    { reason: "zero", value: "0", expected: 0 },
    { reason: "padded", value: " 7 ", expected: 7000 },
    { reason: "fractional (lenient)", value: "1.5", expected: 1500 },
    { reason: "http date in the future", value: "Thu, 01 Jan 2026 00:00:05 GMT", expected: 5000 },
    { reason: "http date in the past", value: "Wed, 31 Dec 2025 23:00:00 GMT", expected: 0 },
    { reason: "garbage", value: "soon", expected: undefined },
    { reason: "absent", value: undefined, expected: undefined },
    { reason: "repeated header", value: ["2", "9"], expected: 2000 },
  ])("$reason", ({ value, expected }) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("nextRetryDelay", () => {
  it("stops at maxAttempts", () => {
    expect(nextRetryDelay({ attempts: 4, elapsedMs: 0 }, options, () => 0.5)).toBeDefined();
    expect(nextRetryDelay({ attempts: 5, elapsedMs: 0 }, options, () => 0.5)).toBeUndefined();
  });
  it("stops when the wait would overrun the total time budget", () => {
    expect(nextRetryDelay({ attempts: 1, elapsedMs: 9_990 }, options, () => 0.5)).toBeUndefined();
    expect(nextRetryDelay({ attempts: 1, elapsedMs: 9_900 }, options, () => 0.5)).toBe(50);
  });
  it("never waits less than Retry-After, even above maxDelayMs", () => {
    expect(nextRetryDelay({ attempts: 1, elapsedMs: 0, retryAfterMs: 3000 }, options, () => 0.9)).toBe(3000);
    expect(nextRetryDelay({ attempts: 4, elapsedMs: 0, retryAfterMs: 10 }, options, () => 0.9)).toBe(720);
  });
  it("gives up when Retry-After exceeds the remaining budget", () => {
    expect(
      nextRetryDelay({ attempts: 1, elapsedMs: 0, retryAfterMs: 60_000 }, options, () => 0),
    ).toBeUndefined();
  });
  it("has bounded defaults", () => {
    expect(DEFAULT_RETRY.maxAttempts).toBeGreaterThan(1);
    expect(DEFAULT_RETRY.maxElapsedMs).toBeLessThanOrEqual(60_000);
  });
});

describe("isIdempotentMethod", () => {
  it("treats GET, PUT and DELETE as repeatable, POST not", () => {
    expect(["GET", "PUT", "DELETE"].every(isIdempotentMethod)).toBe(true);
    expect(isIdempotentMethod("POST")).toBe(false);
  });
});
