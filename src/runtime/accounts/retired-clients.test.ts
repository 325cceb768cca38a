import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/index.ts";
import { RetiredClients } from "./retired-clients.ts";

/** Closes that end when the test says so, and what was closed. */
function closer() {
  const closed: string[] = [];
  const ends: Array<() => void> = [];
  const close = (client: unknown) =>
    new Promise<void>((resolve) => {
      closed.push(client as string);
      ends.push(resolve);
    });
  return { closed, ends, close };
}

describe("RetiredClients", () => {
  it("closes a client once the grace period has passed, once however often it is retired", () => {
    const clock = new FakeClock();
    const c = closer();
    const retired = new RetiredClients(c.close, clock, 1_000);
    retired.retire("a");
    retired.retire("a");
    clock.advance(999);
    expect(c.closed).toEqual([]);
    clock.advance(1);
    expect(c.closed).toEqual(["a"]);
    clock.advance(10_000);
    expect(c.closed).toEqual(["a"]);
  });

  it("shutdown closes the clients still in their grace period and waits for closes already started", async () => {
    const clock = new FakeClock();
    const c = closer();
    const retired = new RetiredClients(c.close, clock, 1_000);
    retired.retire("a");
    clock.advance(500);
    retired.retire("b");
    clock.advance(500); // a's close starts, and has not ended
    expect(retired.footprint().entries).toBe(2);
    let done = false;
    const shutdown = retired.close().then(() => {
      done = true;
    });
    expect(c.closed).toEqual(["a", "b"]);
    expect(clock.pending).toBe(0);
    c.ends[1]!();
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toBe(false); // a's close still runs
    c.ends[0]!();
    await shutdown;
    expect(retired.footprint().entries).toBe(0);
  });

  it("a close that fails does not fail the shutdown", async () => {
    const retired = new RetiredClients(() => Promise.reject(new Error("boom")), new FakeClock(), 1_000);
    retired.retire("a");
    await expect(retired.close()).resolves.toBeUndefined();
    expect(retired.footprint().entries).toBe(0);
  });
});
