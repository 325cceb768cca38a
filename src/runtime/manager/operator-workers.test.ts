import pino from "pino";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../lib/index.ts";
import type { OperatorMetrics } from "../telemetry/index.ts";
import { FakeClock } from "../testing/index.ts";
import { Workers } from "./operator-workers.ts";

const metrics = {
  leader: { set: () => {} },
  queueDepth: { set: () => {} },
  retries: { inc: () => {} },
} as unknown as OperatorMetrics;

/** What every Workers of these tests shares: one hour between resyncs, one lane. */
const WORKERS_DEFAULTS = {
  clock: systemClock,
  log: pino({ level: "silent" }),
  metrics,
  identity: "t",
  resyncMs: 3_600_000,
  resync: () => {},
  priority: () => 0,
};

describe("Workers.lend", () => {
  it("a reconcile waiting on a lent wait lets another key run in its slot, then resumes first", async () => {
    const order: string[] = [];
    let release!: () => void;
    const parked = new Promise<void>((r) => {
      release = r;
    });
    let idle = 0;
    const workers: Workers = new Workers({
      ...WORKERS_DEFAULTS,
      concurrency: 1,
      enqueueAll: () => {
        workers.queue!.add("Widget/ns/a");
        workers.queue!.add("Widget/ns/b");
      },
      onIdle: () => {
        idle++;
        release();
      },
      reconcile: async (key) => {
        order.push(`start ${key}`);
        if (key === "Widget/ns/a") await workers.lend(parked);
        order.push(`end ${key}`);
        return {};
      },
    });
    workers.start();
    const deadline = Date.now() + 5_000;
    while (order.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await workers.stop(1_000);
    // b ran while a was parked (one slot); a's wait went once nothing else was at work (onIdle).
    expect(order).toEqual(["start Widget/ns/a", "start Widget/ns/b", "end Widget/ns/b", "end Widget/ns/a"]);
    expect(idle).toBeGreaterThan(0);
  });
});

describe("Workers.lend: the workers it starts", () => {
  it("do not stay once the lent waits are over: no more workers than slots wait for keys", async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `Widget/ns/k${i}`);
    const done: string[] = [];
    let release!: () => void;
    const parked = new Promise<void>((r) => {
      release = r;
    });
    const workers: Workers = new Workers({
      ...WORKERS_DEFAULTS,
      concurrency: 2,
      enqueueAll: () => {
        for (const k of keys) workers.queue!.add(k);
      },
      // Every key parks on a lent wait: each lend finds no worker waiting, and starts one.
      onIdle: () => release(),
      reconcile: async (key) => {
        await workers.lend(parked);
        done.push(key);
        return {};
      },
    });
    workers.start();
    const deadline = Date.now() + 5_000;
    while (done.length < keys.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    expect(done.length).toBe(keys.length);
    expect(workers.running).toBeLessThanOrEqual(2);
    await workers.stop(1_000);
  });
});

describe("Workers: the order keys start in", () => {
  it("is the queue's, also when a worker finishing hands its slot to one waiting", async () => {
    const started: string[] = [];
    const keys = ["a", "b", "c", "d", "e"].map((k) => `Widget/ns/${k}`);
    const workers: Workers = new Workers({
      ...WORKERS_DEFAULTS,
      concurrency: 1,
      enqueueAll: () => {
        for (const key of keys) workers.queue!.add(key);
      },
      reconcile: async (key) => {
        started.push(key);
        // A lent wait: one more worker, so that two wait for the one slot from then on.
        if (key === keys[0]) await workers.lend(Promise.resolve());
        return {};
      },
    });
    workers.start();
    const deadline = Date.now() + 5_000;
    while (started.length < keys.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await workers.stop(1_000);
    expect(started).toEqual(keys);
  });
});

describe("Workers: the periodic resync", () => {
  const flush = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };

  /** Workers over one key with a 1 s resync period, on a fake clock; `resyncs()` counts the passes. */
  function resyncing(reconcile: () => Promise<object>) {
    const clock = new FakeClock();
    let resyncs = 0;
    const workers: Workers = new Workers({
      ...WORKERS_DEFAULTS,
      clock,
      concurrency: 1,
      resyncMs: 1_000,
      resync: () => void resyncs++,
      enqueueAll: () => workers.queue!.add("Widget/ns/a"),
      reconcile,
    });
    workers.start();
    return { clock, workers, resyncs: () => resyncs };
  }

  it("waits while reconciles are at work or queued, and runs once the queue is idle", async () => {
    let finish!: () => void;
    const busy = new Promise<void>((r) => {
      finish = r;
    });
    const { clock, workers, resyncs } = resyncing(async () => {
      await busy;
      return {};
    });
    await flush();
    clock.advance(1_000);
    await flush();
    expect(resyncs()).toBe(0);
    finish();
    await flush();
    expect(resyncs()).toBe(1);
    // Idle when the next period comes: at once.
    clock.advance(1_000);
    await flush();
    expect(resyncs()).toBe(2);
    await workers.stop(1_000);
  });

  it("waits one more period at most: a queue never idle still gets its resync", async () => {
    const { clock, workers, resyncs } = resyncing(() => new Promise(() => {}));
    await flush();
    clock.advance(1_000);
    await flush();
    expect(resyncs()).toBe(0);
    clock.advance(1_000);
    await flush();
    expect(resyncs()).toBe(1);
    await workers.stop(10);
  });
});

describe("Workers.lend: the reconciles parked at once", () => {
  it("are at most maxLent: past it a wait keeps its slot, and the next key waits for it", async () => {
    const started: string[] = [];
    let release!: () => void;
    const parked = new Promise<void>((r) => {
      release = r;
    });
    const keys = ["a", "b", "c", "d"].map((k) => `Widget/ns/${k}`);
    const workers: Workers = new Workers({
      ...WORKERS_DEFAULTS,
      concurrency: 1,
      maxLent: 2,
      enqueueAll: () => {
        for (const key of keys) workers.queue!.add(key);
      },
      reconcile: async (key) => {
        started.push(key);
        await workers.lend(parked);
        return {};
      },
    });
    workers.start();
    const settle = async () => {
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    // a and b lent their slot; c kept it: d has not started.
    expect(started).toEqual(keys.slice(0, 3));
    release();
    await settle();
    expect(started).toEqual(keys);
    await workers.stop(1_000);
  });
});
