import { describe, expect, it } from "vitest";
import { Permits } from "./permits.ts";

const settle = () => new Promise((r) => setImmediate(r));

describe("Permits", () => {
  it("a permit freed goes to the first line's longest waiter, then the second's", async () => {
    const permits = new Permits(1);
    expect(permits.tryAcquire()).toBe(true);
    expect(permits.tryAcquire()).toBe(false);
    const order: string[] = [];
    void permits.acquire(false).then(() => order.push("rest-1"));
    void permits.acquire(true).then(() => order.push("first-1"));
    void permits.acquire(true).then(() => order.push("first-2"));
    expect(permits.waitingBehind).toBe(1);
    for (let i = 0; i < 3; i++) {
      permits.release();
      await settle();
    }
    expect(order).toEqual(["first-1", "first-2", "rest-1"]);
    permits.release();
    expect(permits.allFree).toBe(true);
  });

  it("releaseWaiters lets every waiter go on without a permit", async () => {
    const permits = new Permits(1);
    permits.tryAcquire();
    const waiting = [permits.acquire(true), permits.acquire(false)];
    permits.releaseWaiters();
    await Promise.all(waiting);
    expect([permits.waitingBehind, permits.allFree]).toEqual([0, false]);
  });
});
