import { describe, expect, it } from "vitest";
import { callsGoAhead } from "../../api/index.ts";
import type { AnyManagedKind } from "../sdk/index.ts";
import { BatchedReads, NOT_LISTED } from "./batched-reads.ts";

/**
 * A kind whose index lists what `items` holds for a scope, counting its calls; with `gate`, a
 * call answers what it listed when sent, once the gate opens.
 */
function kindWith(items: Record<string, { href: string; v: number }[]>, fail?: Error, gate?: Promise<void>) {
  const calls: string[] = [];
  /** The `wanted` of each call, sorted (undefined: the whole listing asked). */
  const wanted: (string[] | undefined)[] = [];
  /** Whether each call went ahead of others waiting for a connection (connection-gate.ts). */
  const ahead: boolean[] = [];
  const kind = {
    kind: "Widget",
    hrefOf: (o: { href: string }) => o.href,
    index: {
      scope: () => "",
      list: async (_client: unknown, scope: string, want?: ReadonlySet<string>) => {
        calls.push(scope);
        ahead.push(callsGoAhead());
        wanted.push(want && [...want].sort());
        if (fail) throw fail;
        const listed = [...(items[scope] ?? [])];
        await gate;
        return listed;
      },
    },
  } as unknown as AnyManagedKind;
  return { kind, calls, wanted, ahead };
}

const client = {};

describe("BatchedReads", () => {
  it("reads of one kind, Account and scope asked within the window share one index call", async () => {
    const { kind, calls, ahead } = kindWith({
      a: [
        { href: "/w/1", v: 1 },
        { href: "/w/2", v: 2 },
      ],
      b: [],
    });
    const reads = new BatchedReads({ windowMs: 20 });
    const got = await Promise.all([
      reads.read(kind, "ns/acc", client, "a", "/w/1"),
      reads.read(kind, "ns/acc", client, "a", "/w/2"),
      reads.read(kind, "ns/acc", client, "a", "/w/2"),
      reads.read(kind, "ns/acc", client, "b", "/w/3"),
    ]);
    expect(got).toEqual([{ href: "/w/1", v: 1 }, { href: "/w/2", v: 2 }, { href: "/w/2", v: 2 }, NOT_LISTED]);
    expect(calls.sort()).toEqual(["a", "b"]);
    // Every object of the batch waits on its call: it goes ahead of calls one reconcile waits on.
    expect(ahead).toEqual([true, true]);
    // A later read is a new batch: what it answers is read after it was asked.
    await reads.read(kind, "ns/acc", client, "a", "/w/1");
    expect(calls).toHaveLength(3);
    expect(reads.size).toBe(0);
  });

  it("Accounts never share a batch; a failed index fails each read of its batch", async () => {
    const { kind, calls } = kindWith({}, new Error("503"));
    const reads = new BatchedReads({ windowMs: 5 });
    const results = await Promise.allSettled([
      reads.read(kind, "ns/one", client, "", "/w/1"),
      reads.read(kind, "ns/two", client, "", "/w/1"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toHaveLength(2);
  });

  it("flush reads open batches once they are a few ms old, not at the end of their window", async () => {
    const { kind, calls } = kindWith({ "": [{ href: "/w/1", v: 1 }] });
    const reads = new BatchedReads({ windowMs: 60_000 });
    const started = performance.now();
    const read = reads.read(kind, "ns/acc", client, "", "/w/1");
    reads.flush(10);
    expect(await read).toEqual({ href: "/w/1", v: 1 });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(calls).toHaveLength(1);
  });

  it("a waiting read is handed to `idle` (the worker's slot is lent meanwhile)", async () => {
    const { kind } = kindWith({ "": [] });
    let lent = 0;
    const reads = new BatchedReads({
      windowMs: 1,
      idle: (wait) => {
        lent++;
        return wait;
      },
    });
    expect(await reads.read(kind, "ns/acc", client, "", "/w/9")).toBe(NOT_LISTED);
    expect(lent).toBe(1);
  });

  it("a listing (a lookup's) shares a batch not sent yet, never one already sent: that one may predate the asker's create", async () => {
    const items: Record<string, { href: string; v: number }[]> = { "": [{ href: "/w/1", v: 1 }] };
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { kind, calls } = kindWith(items, undefined, gate);
    const reads = new BatchedReads({ windowMs: 5 });
    const first = reads.list(kind, "ns/acc", client, "");
    const read = reads.read(kind, "ns/acc", client, "", "/w/1");
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    // The first call is on its way when an object appears (a create whose answer was lost) and a
    // lookup asks: it gets a call of its own, sent after it asked, that shows the object.
    items[""]!.push({ href: "/w/2", v: 2 });
    const second = reads.list(kind, "ns/acc", client, "");
    release();
    expect((await first).map((o) => (o as { href: string }).href)).toEqual(["/w/1"]);
    expect(await read).toEqual({ href: "/w/1", v: 1 });
    expect((await second).map((o) => (o as { href: string }).href)).toEqual(["/w/1", "/w/2"]);
    expect(calls).toHaveLength(2);
  });

  it("one index call per key at a time: reads due while one is in flight wait for it, then share one call", async () => {
    const items = { "": [1, 2, 3].map((v) => ({ href: `/w/${v}`, v })) };
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { kind, calls, wanted } = kindWith(items, undefined, gate);
    const reads = new BatchedReads({ windowMs: 5 });
    const pause = () => new Promise((r) => setTimeout(r, 20));
    const first = reads.read(kind, "ns/acc", client, "", "/w/1");
    await pause();
    // The first call is held (as behind an --api-rate queue): reads asked meanwhile, windows
    // apart, do not send a call each.
    const second = reads.read(kind, "ns/acc", client, "", "/w/2");
    await pause();
    const third = reads.read(kind, "ns/acc", client, "", "/w/3");
    await pause();
    expect(calls).toHaveLength(1);
    release();
    expect(await Promise.all([first, second, third])).toEqual(items[""]);
    expect(calls).toHaveLength(2);
    expect(wanted[1]).toEqual(["/w/2", "/w/3"]);
    expect(reads.size).toBe(0);
  });

  it("a call in flight that hangs holds the next batch of its key back no longer than maxWaitForCallMs", async () => {
    const items = { "": [1, 2].map((v) => ({ href: `/w/${v}`, v })) };
    const { kind, calls } = kindWith(items, undefined, new Promise<void>(() => {}));
    const reads = new BatchedReads({ windowMs: 5, maxWaitForCallMs: 60 });
    void reads.read(kind, "ns/acc", client, "", "/w/1");
    await new Promise((r) => setTimeout(r, 20));
    void reads.read(kind, "ns/acc", client, "", "/w/2");
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(calls).toHaveLength(2);
    expect(reads.size).toBe(0);
  });

  it("reads alone ask the index for the hrefs they wait for; a lookup sharing the batch gets the whole listing", async () => {
    const { kind, wanted } = kindWith({ "": [{ href: "/w/1", v: 1 }] });
    const reads = new BatchedReads({ windowMs: 5 });
    await Promise.all([
      reads.read(kind, "ns/acc", client, "", "/w/2"),
      reads.read(kind, "ns/acc", client, "", "/w/1"),
      reads.read(kind, "ns/acc", client, "", "/w/1"),
    ]);
    const [listed] = await Promise.all([
      reads.list(kind, "ns/acc", client, ""),
      reads.read(kind, "ns/acc", client, "", "/w/1"),
    ]);
    expect(wanted).toEqual([["/w/1", "/w/2"], undefined]);
    expect(listed).toEqual([{ href: "/w/1", v: 1 }]);
  });

  it("a batch of 16 or more is read once every create expected has joined it, without waiting out its window", async () => {
    const items = { "": Array.from({ length: 16 }, (_, i) => ({ href: `/w/${i}`, v: i })) };
    const { kind, calls } = kindWith(items);
    const reads = new BatchedReads({ windowMs: 60_000 });
    const joins = Array.from({ length: 17 }, () => reads.expect(kind, "ns/acc", ""));
    const got = items[""].map((item, i) => {
      const read = reads.read(kind, "ns/acc", client, "", item.href);
      joins[i]!();
      joins[i]!(); // once only
      return read;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);
    // The last create failed: it reads nothing, and no more reads are coming.
    joins[16]!();
    expect(await Promise.all(got)).toEqual(items[""]);
    expect(calls).toHaveLength(1);
    expect(reads.expecting).toBe(0);
  });

  it("a small batch keeps its window once its creates have joined: objects created apart still share a call", async () => {
    const { kind, calls } = kindWith({ "": [{ href: "/w/1", v: 1 }] });
    const reads = new BatchedReads({ windowMs: 60_000 });
    const joined = reads.expect(kind, "ns/acc", "");
    const read = reads.read(kind, "ns/acc", client, "", "/w/1");
    joined();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);
    reads.flush(0);
    expect(await read).toEqual({ href: "/w/1", v: 1 });
  });

  it("a soon read (looks at pending objects, on one grid) opens a batch read after soonMs, not the window", async () => {
    const { kind, calls } = kindWith({ "": [{ href: "/w/1", v: 1 }] });
    const reads = new BatchedReads({ windowMs: 60_000, soonMs: 10 });
    const looks = [
      reads.read(kind, "ns/acc", client, "", "/w/1", true),
      reads.read(kind, "ns/acc", client, "", "/w/2"),
    ];
    expect(await Promise.all(looks)).toEqual([{ href: "/w/1", v: 1 }, NOT_LISTED]);
    expect(calls).toHaveLength(1);
  });
});
