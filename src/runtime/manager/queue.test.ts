import { describe, expect, it } from "vitest";
import { namespaceOfKey } from "../sdk/index.ts";
import { FakeClock } from "../testing/index.ts";
import { WorkQueue } from "./queue.ts";

describe("WorkQueue", () => {
  it("deduplicates waiting keys", async () => {
    const q = new WorkQueue();
    q.add("a");
    q.add("b");
    q.add("a");
    expect(q.length).toBe(2);
    expect(await q.get()).toBe("a");
    expect(await q.get()).toBe("b");
  });

  it("never hands one key to two workers; a key added while processing comes back after done", async () => {
    const q = new WorkQueue();
    q.add("a");
    const key = await q.get();
    q.add("a");
    expect(q.length).toBe(0);
    const second = q.get();
    let got: string | undefined;
    second.then((k) => {
      got = k;
    });
    await Promise.resolve();
    expect(got).toBeUndefined();
    q.done(key!);
    expect(await second).toBe("a");
  });

  it("serves keys by priority, highest first, in order within a priority, deduplicated", async () => {
    const rank: Record<string, number> = { Account: 10, Subnet: 2 };
    const q = new WorkQueue({ priority: (k) => rank[k.split("/")[0]!] ?? 0 });
    for (const k of [
      "Volume/a/1",
      "Subnet/a/1",
      "Volume/a/2",
      "Account/a/default",
      "Volume/a/3",
      "Subnet/a/2",
      "Account/b/default",
    ])
      q.add(k);
    q.add("Account/a/default");
    q.add("Subnet/a/1");
    expect(q.length).toBe(7);
    const order: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) order.push(await q.get());
    // A key added later with a higher priority still goes before the lower lanes.
    q.add("Subnet/a/3");
    for (let i = 0; i < 4; i++) order.push(await q.get());
    expect(order).toEqual([
      "Account/a/default",
      "Account/b/default",
      "Subnet/a/1",
      "Subnet/a/2",
      "Subnet/a/3",
      "Volume/a/1",
      "Volume/a/2",
      "Volume/a/3",
    ]);
    expect(q.length).toBe(0);
  });

  it("wakes a waiting worker on add", async () => {
    const q = new WorkQueue();
    const p = q.get();
    q.add("x");
    expect(await p).toBe("x");
    expect(q.isProcessing("x")).toBe(true);
  });

  it("backs off exponentially per key up to the cap and resets on forget", () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock, backoff: { baseMs: 5, maxMs: 1000 } });
    const delays = Array.from({ length: 10 }, () => q.addRateLimited("k"));
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
    expect(q.addRateLimited("other")).toBe(5);
    q.forget("k");
    expect(q.addRateLimited("k")).toBe(5);
  });

  it("adds after a delay; the earliest pending delay wins", () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("k", 1000);
    q.addAfter("k", 100);
    q.addAfter("k", 5000);
    expect(clock.pending).toBe(1);
    clock.advance(99);
    expect(q.length).toBe(0);
    clock.advance(1);
    expect(q.length).toBe(1);
  });

  it("reports depth and retries to hooks", () => {
    const depths: number[] = [];
    const retries: string[] = [];
    const q = new WorkQueue({
      clock: new FakeClock(),
      hooks: { depth: (d) => depths.push(d), retry: (k) => retries.push(k) },
    });
    q.add("a");
    q.add("b");
    q.addRateLimited("c");
    expect(depths).toEqual([1, 2]);
    expect(retries).toEqual(["c"]);
  });

  it("shutdown releases waiting workers and drops new keys", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    const p = q.get();
    q.addAfter("late", 10);
    q.shutdown();
    expect(await p).toBeUndefined();
    q.add("x");
    clock.advance(100);
    expect(q.length).toBe(0);
    expect(await q.get()).toBeUndefined();
  });

  it("drop forgets a gone key's backoff and delayed re-add, and leaves a key queued since", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addRateLimited("gone");
    q.addAfter("resynced", 60_000);
    q.add("recreated");
    q.addAfter("recreated", 60_000);
    for (const key of ["gone", "resynced", "recreated"]) q.drop(key);
    expect(clock.pending).toBe(0);
    expect(q.retries("gone")).toBe(0);
    const held = Object.fromEntries(Object.entries(q.footprint()).map(([m, f]) => [m, [...f.keys!()]]));
    expect(held).toEqual({
      "queue.waiting": ["recreated"],
      "queue.processing": [],
      "queue.dirty": [],
      "queue.urgentProcessing": [],
      "queue.failures": [],
      "queue.delayed": [],
    });
    expect(await q.get()).toBe("recreated");
  });
});

describe("WorkQueue urgent keys", () => {
  it("go ahead of every lane but the top one; a waiting key moves up, and is handed out once", async () => {
    const rank: Record<string, number> = { Account: Number.MAX_SAFE_INTEGER, Net: 2, Leaf: 1 };
    const q = new WorkQueue({ priority: (k) => rank[k.split("/")[0]!] ?? 0 });
    q.add("Net/a");
    q.add("Leaf/a");
    q.add("Leaf/b");
    q.add("Account/x");
    q.add("Leaf/b", true); // woken: moves ahead of Net/a
    q.add("Leaf/c", true);
    expect(q.length).toBe(5);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const key = (await q.get())!;
      order.push(key);
      q.done(key);
    }
    expect(order).toEqual(["Account/x", "Leaf/b", "Leaf/c", "Net/a", "Leaf/a"]);
    expect(q.length).toBe(0);
  });

  it("among themselves go by priority: of the dependents woken together, the deepest chain first", () => {
    const rank: Record<string, number> = { Net: 2, Leaf: 1 };
    const q = new WorkQueue({ priority: (k) => rank[k.split("/")[0]!] ?? 0 });
    q.add("Other/backlog");
    q.add("Leaf/a", true);
    q.add("Net/a", true);
    q.add("Leaf/b", true);
    q.add("Net/b", true);
    const order = [q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet()];
    expect(order).toEqual(["Net/a", "Net/b", "Leaf/a", "Leaf/b", "Other/backlog"]);
    // Put back (no slot free): at the head of its own urgent lane, still ahead of the lower one.
    q.add("Leaf/c", true);
    q.putBack("Net/b");
    expect([q.tryGet(), q.tryGet()]).toEqual(["Net/b", "Leaf/c"]);
  });
});

describe("WorkQueue.putBack and urgency across processing", () => {
  it("a key put back goes to the head of its lane, urgent as it was", () => {
    const q = new WorkQueue();
    q.add("a");
    q.add("b");
    q.add("u", true);
    const urgent = q.tryGet()!;
    const first = q.tryGet()!;
    expect([urgent, first]).toEqual(["u", "a"]);
    q.putBack(first);
    q.putBack(urgent);
    q.add("v", true);
    expect([q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet()]).toEqual([
      "u",
      "v",
      "a",
      "b",
      undefined,
    ]);
  });

  it("a worker waiting for a key gets the first one waiting, a key put back before the one added", async () => {
    const q = new WorkQueue();
    q.add("x");
    const taken = q.tryGet()!;
    const next = q.get(); // a worker waits: the queue is empty
    q.putBack(taken); // its worker found no slot
    q.add("y");
    expect(await next).toBe("x");
    expect(q.tryGet()).toBe("y");
  });

  it("a key added urgent while processing is queued urgent on done", () => {
    const q = new WorkQueue();
    q.add("parked");
    const key = q.tryGet()!;
    q.add("other");
    q.add(key, true); // its reference turned Ready while it was parking
    q.done(key);
    expect(q.tryGet()).toBe("parked");
  });
});

describe("WorkQueue fairness across flows (namespaces)", () => {
  const rank: Record<string, number> = { Account: Number.MAX_SAFE_INTEGER, Net: 2, Leaf: 1 };
  const fairQueue = () =>
    new WorkQueue({ priority: (k) => rank[k.split("/")[0]!] ?? 0, flow: namespaceOfKey });
  const takeAll = (q: WorkQueue) => {
    const order: string[] = [];
    for (let key = q.tryGet(); key !== undefined; key = q.tryGet()) {
      order.push(key);
      q.done(key);
    }
    return order;
  };

  it("with 40 Accounts of one namespace queued, another namespace's keys are served in turn", () => {
    const q = fairQueue();
    for (let i = 0; i < 40; i++) q.add(`Account/a/acct-${i}`);
    q.add("Account/b/default");
    for (let i = 0; i < 3; i++) q.add(`Leaf/b/alert-${i}`);
    for (let i = 0; i < 3; i++) q.add(`Leaf/a/alert-${i}`);
    const order = takeAll(q);
    // b's Account right after a's first; then the rest of a's Accounts (a lane of their own).
    expect(order.slice(0, 3)).toEqual(["Account/a/acct-0", "Account/b/default", "Account/a/acct-1"]);
    expect(order.indexOf("Account/b/default")).toBe(1);
    // Lanes stay: every Account first, then the leaves, b's and a's in turn.
    expect(order.slice(41)).toEqual([
      "Leaf/b/alert-0",
      "Leaf/a/alert-0",
      "Leaf/b/alert-1",
      "Leaf/a/alert-1",
      "Leaf/b/alert-2",
      "Leaf/a/alert-2",
    ]);
  });

  it("a higher lane goes first whatever the flows: fairness is within a lane", () => {
    const q = fairQueue();
    for (let i = 0; i < 5; i++) q.add(`Leaf/a/${i}`);
    q.add("Net/b/main");
    q.add("Leaf/b/x");
    expect(takeAll(q).slice(0, 3)).toEqual(["Net/b/main", "Leaf/a/0", "Leaf/b/x"]);
  });

  it("a namespace that comes while another has a backlog is served every other key, not after it", () => {
    const q = fairQueue();
    for (let i = 0; i < 100; i++) q.add(`Leaf/a/${i}`);
    for (let i = 0; i < 10; i++) expect(q.tryGet()).toBe(`Leaf/a/${i}`);
    // A new namespace comes while a has 90 keys left: its keys go every other one, not after 90.
    q.add("Leaf/b/0");
    q.add("Leaf/b/1");
    expect([q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet(), q.tryGet()]).toEqual([
      "Leaf/a/10",
      "Leaf/b/0",
      "Leaf/a/11",
      "Leaf/b/1",
      "Leaf/a/12",
    ]);
  });

  it("a key put back (no slot free) goes next in its lane, before the flow whose turn it is", () => {
    const q = fairQueue();
    q.add("Leaf/a/0");
    q.add("Leaf/a/1");
    q.add("Leaf/b/0");
    const taken = q.tryGet()!;
    expect(taken).toBe("Leaf/a/0");
    q.putBack(taken);
    expect(takeAll(q)).toEqual(["Leaf/a/0", "Leaf/b/0", "Leaf/a/1"]);
  });

  it("a key woken urgent leaves its entry in its flow behind: handed out once, its flow's turn not lost", () => {
    const q = fairQueue();
    q.add("Leaf/a/0");
    q.add("Leaf/a/1");
    q.add("Leaf/b/0");
    q.add("Leaf/a/1", true);
    expect(takeAll(q)).toEqual(["Leaf/a/1", "Leaf/a/0", "Leaf/b/0"]);
    expect(q.length).toBe(0);
  });
});

describe("WorkQueue.cancelDelayed", () => {
  it("drops a delayed re-add", () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("a", 1000);
    q.cancelDelayed("a");
    clock.advance(2000);
    expect(q.length).toBe(0);
  });
});
