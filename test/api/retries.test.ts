import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { TokenBucket } from "../../src/api/rate-limiter.ts";
import { startSimulator } from "../simulator/harness.ts";
import { rejection, simStats, testApi } from "./helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

/** Every fault applies with probability 1 until the client's first backoff clears it. */
function clearFaultsOnSleep() {
  return async () => {
    await h.hook("faults", {});
  };
}

async function authenticated(t: ReturnType<typeof testApi>) {
  await t.api.clouds.index().catch(() => undefined); // grant the token before faults start
}

describe("retries under injected faults", () => {
  it.each([
    { fault: { error500: 1 }, status: 500 },
    { fault: { error503: 1 }, status: 503 },
  ])("retries a GET after $status and succeeds", async ({ fault, status }) => {
    const t = testApi(h, { onSleep: clearFaultsOnSleep() });
    await authenticated(t);
    await h.hook("faults", fault);
    const list = await t.api.deployments.index();
    expect(list).toHaveLength(2);
    expect(t.events.slice(-2).map((e) => [e.status, e.attempt])).toEqual([
      [status, 1],
      [200, 2],
    ]);
    expect(t.sleeps).toHaveLength(1);
    await t.close();
  });

  it("honours Retry-After on 429", async () => {
    const t = testApi(h, { onSleep: clearFaultsOnSleep(), random: () => 0 });
    await authenticated(t);
    await h.hook("faults", { throttle429: 1, retryAfterSeconds: 3 });
    await t.api.deployments.update("/api/deployments/1", { description: "after throttling" });
    expect(t.events.slice(-2).map((e) => e.status)).toEqual([429, 204]);
    expect(t.sleeps).toEqual([3000]);
    expect((await t.api.deployments.show("/api/deployments/1")).description).toBe("after throttling");
    await t.close();
  });

  it("gives up after the attempt budget with a throttled error", async () => {
    const t = testApi(h, { retry: { maxAttempts: 3 } });
    await authenticated(t);
    await h.hook("faults", { throttle429: 1, retryAfterSeconds: 1 });
    const error = await rejection(t.api.deployments.index());
    expect(error).toMatchObject({ kind: "throttled", status: 429, attempts: 3 });
    expect(t.sleeps).toHaveLength(2);
    expect(t.sleeps.every((ms) => ms >= 1000)).toBe(true);
    await h.hook("faults", {});
    await t.close();
  });

  it("retries a GET whose connection was dropped", async () => {
    const t = testApi(h, { onSleep: clearFaultsOnSleep() });
    await authenticated(t);
    await h.hook("faults", { reset: 1 });
    expect(await t.api.deployments.index()).toHaveLength(2);
    expect(t.events.slice(-2).map((e) => e.status)).toEqual([0, 200]);
    await t.close();
  });

  it("a create whose connection drops after the commit is outcomeUnknown, and the object exists", async () => {
    const t = testApi(h);
    await authenticated(t);
    await h.hook("faults", { commitThenDrop: 1 });
    const error = await rejection(t.api.deployments.create({ name: "Committed then dropped" }));
    await h.hook("faults", {});
    expect(error).toMatchObject({ kind: "outcomeUnknown", code: "SVC_OUTCOME_UNKNOWN", attempts: 1 });
    expect(t.sleeps).toEqual([]);
    const found = await t.api.deployments.index({ filter: { name: "Committed then dropped" } });
    expect(found).toHaveLength(1);
    await t.close();
  });

  it("a create answered 500 is outcomeUnknown and is not retried", async () => {
    const t = testApi(h);
    await authenticated(t);
    await h.hook("faults", { error500: 1 });
    const error = await rejection(t.api.deployments.create({ name: "Maybe" }));
    await h.hook("faults", {});
    expect(error).toMatchObject({ kind: "outcomeUnknown", status: 500 });
    expect(t.events.filter((e) => e.method === "POST" && e.route === "/api/deployments")).toHaveLength(1);
    await t.close();
  });

  it("an update whose connection drops after the commit is retried (PUT is idempotent)", async () => {
    const t = testApi(h, { onSleep: clearFaultsOnSleep() });
    await authenticated(t);
    await h.hook("faults", { commitThenDrop: 1 });
    await t.api.deployments.update("/api/deployments/1", { description: "twice is fine" });
    expect(t.events.slice(-2).map((e) => e.status)).toEqual([0, 204]);
    await t.close();
  });
});

describe("rate limiter", () => {
  it("never lets more than burst + rate x elapsed calls reach the simulator", async () => {
    // A fake clock that every requested sleep moves forward by its length (a timeline where time
    // passes only while someone waits); sends are timed as they are handed to the dispatcher.
    let now = 0;
    const rate = 20;
    const burst = 5;
    const bucket = new TokenBucket({ ratePerSecond: rate, burst }, () => now);
    const sent: number[] = [];
    const t = testApi(h, {
      rateLimit: bucket,
      now: () => now,
      onSleep: async (ms) => {
        now += ms;
      },
      onDispatch: () => sent.push(now),
    });
    const before = await simStats(h);
    await Promise.all(Array.from({ length: 40 }, () => t.api.deployments.show("/api/deployments/1")));
    const after = await simStats(h);
    const shows =
      (after.get("GET /api/deployments/:id 200") ?? 0) - (before.get("GET /api/deployments/:id 200") ?? 0);
    expect(shows).toBe(40);
    expect(sent).toHaveLength(41); // 40 shows + the token grant, all through the bucket
    for (const t0 of sent) {
      expect(sent.filter((s) => s <= t0).length).toBeLessThanOrEqual(burst + Math.ceil((rate * t0) / 1000));
    }
    expect(now).toBeGreaterThanOrEqual(((41 - burst) / rate) * 1000 - 1);
    await t.close();
  });

  it("is shared by every client of the account when the same bucket is passed", async () => {
    let now = 0;
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2 }, () => now);
    const opts = {
      rateLimit: bucket,
      now: () => now,
      onSleep: async (ms: number) => {
        now += ms;
      },
    };
    const a = testApi(h, opts);
    const b = testApi(h, opts);
    await Promise.all([a.api.deployments.index(), b.api.deployments.index()]);
    // Four calls (two grants, two indexes) through one bucket of burst 2 at 10/s: at least 200 ms.
    expect(now).toBeGreaterThanOrEqual(200);
    await a.close();
    await b.close();
  });
});

describe("timeouts", () => {
  it("a slow answer times out per attempt: a GET is retried, then reported as a network error", async () => {
    const t = testApi(h, { transport: { requestTimeoutMs: 50 }, retry: { maxAttempts: 2 } });
    await authenticated(t);
    await h.hook("faults", { latencyMs: 400 });
    const error = await rejection(t.api.deployments.index());
    await h.hook("faults", {});
    expect(error).toMatchObject({ kind: "retryable", code: "SVC_NETWORK_ERROR", attempts: 2 });
    expect((error.cause as { code?: string }).code).toBe("SVC_ATTEMPT_TIMEOUT");
    await t.close();
  });

  it("a quick call waits firstByteTimeoutMs for its answer to start; the others wait requestTimeoutMs", async () => {
    const t = testApi(h, {
      transport: { firstByteTimeoutMs: 50, requestTimeoutMs: 5_000 },
      retry: { maxAttempts: 2 },
    });
    await authenticated(t);
    await h.hook("faults", { latencyMs: 400 });
    const quick = await rejection(t.api.deployments.index({ quick: true }));
    const slow = await t.api.deployments.index().then(
      (list) => list.length,
      (error: unknown) => error,
    );
    await h.hook("faults", {});
    expect(quick).toMatchObject({ kind: "retryable", code: "SVC_NETWORK_ERROR", attempts: 2 });
    expect((quick.cause as { code?: string }).code).toBe("SVC_FIRST_BYTE_TIMEOUT");
    expect(quick.message).toContain("no answer within 50 ms");
    expect(slow).toBe(2);
    await t.close();
  });

  it.each(["oauth", "session"] as const)(
    "signing in (%s) is a quick call: an answer that does not start fails it at the first-byte timeout",
    async (mode) => {
      const t = testApi(h, {
        mode,
        transport: { firstByteTimeoutMs: 50, requestTimeoutMs: 5_000 },
        retry: { maxAttempts: 1 },
      });
      await h.hook("faults", { latencyMs: 400 });
      const error = await rejection(t.api.deployments.index());
      await h.hook("faults", {});
      expect((error.cause as { code?: string }).code).toBe("SVC_FIRST_BYTE_TIMEOUT");
      expect(t.events.map((e) => e.method)).toEqual(["POST"]);
      await t.close();
    },
  );

  it("a create that times out is outcomeUnknown", async () => {
    const t = testApi(h, { transport: { requestTimeoutMs: 50 } });
    await authenticated(t);
    await h.hook("faults", { latencyMs: 400 });
    const error = await rejection(t.api.deployments.create({ name: "Slow create" }));
    await h.hook("faults", {});
    expect(error).toMatchObject({ kind: "outcomeUnknown", attempts: 1 });
    await t.close();
  });
});
