import pino from "pino";
import { describe, expect, it } from "vitest";
import type { AnyManagedKind } from "../sdk/index.ts";
import { FakeClock } from "../testing/index.ts";
import { widgetsInSync } from "./observer.testing.ts";
import { Observations } from "./observer.ts";
import { CONFIRM_HELD, CONFIRM_WAIT_MS, SettledConfirmations } from "./settled-confirmations.ts";

function confirmations(s: ReturnType<typeof widgetsInSync>) {
  return new SettledConfirmations({
    kindOf: (k) => (k === "Widget" ? (s.kind as unknown as AnyManagedKind) : undefined),
    store: s.kube,
    observer: s.observer,
    observations: s.observations,
    enqueue: (key) => s.queued.push(key),
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
  });
}

const keys = (n: number, namespaces = 1) =>
  Array.from({ length: n }, (_, i) => `Widget/ns${i % namespaces}/w${i}`);

describe("SettledConfirmations", () => {
  it("queues each settled object with its observation: one index read per scope, none per object", async () => {
    const s = widgetsInSync(3_000, 2);
    await confirmations(s).release(keys(3_000, 2));
    expect(s.calls).toEqual(["index", "index"]);
    expect(s.queued.sort()).toEqual(keys(3_000, 2).sort());
    for (const [i, key] of keys(3_000, 2).entries())
      expect(s.observations.take(key, `/api/widgets/${i}`)).toEqual({ href: `/api/widgets/${i}`, size: 1 });
  });

  it("queues the unsettled at once, and those the index does not show without an observation", async () => {
    const s = widgetsInSync(4);
    s.kube.get("Widget", "ns0", "w1")!.status!.conditions![0]!.status = "False";
    s.kube.get("Widget", "ns0", "w2")!.metadata.annotations = { "cloud.svc.io/paused": "true" };
    s.service.delete("/api/widgets/3");
    const c = confirmations(s);
    const done = c.release(keys(4));
    // Queued before the index answers.
    expect(s.queued).toEqual(["Widget/ns0/w1", "Widget/ns0/w2"]);
    await done;
    expect(s.calls).toEqual(["index"]);
    expect(s.queued).toEqual(["Widget/ns0/w1", "Widget/ns0/w2", "Widget/ns0/w0", "Widget/ns0/w3"]);
    expect(s.observations.size).toBe(1);
    expect(s.observations.take("Widget/ns0/w3", "/api/widgets/3")).toBeUndefined();
  });

  it("an Account without a client: its objects are queued to read for themselves", async () => {
    const s = widgetsInSync(4, 2);
    s.notReady.add("ns1");
    await confirmations(s).release(keys(4, 2));
    expect(s.calls).toEqual(["index"]);
    expect(s.queued.sort()).toEqual(keys(4, 2).sort());
    expect(s.observations.size).toBe(2);
  });
});

describe("SettledConfirmations: one kind at a time", () => {
  it("reads the next kind once the observations held are few, or after CONFIRM_WAIT_MS", async () => {
    const clock = new FakeClock();
    const observations = new Observations(() => clock.now());
    const read: string[] = [];
    const c = new SettledConfirmations({
      kindOf: (kind) => ({ kind, index: {} }) as unknown as AnyManagedKind,
      store: { get: () => ({}) } as never,
      observer: {
        settled: () => true,
        confirm: async (kind, objects) => {
          read.push(kind.kind);
          for (let i = 0; i <= CONFIRM_HELD + objects.length; i++)
            observations.put(`${kind.kind}/ns/o${i}`, "/h", {});
          return {} as never;
        },
      },
      observations,
      enqueue: () => {},
      clock,
      log: pino({ level: "silent" }),
    });
    const done = c.release(["A/ns/a", "B/ns/b", "C/ns/c"]);
    await flush();
    expect(read).toEqual(["A"]);
    // The reconciles take A's observations: B is read.
    for (let i = 0; i <= 1; i++) observations.take(`A/ns/o${i}`, "/h");
    await flush();
    expect(read).toEqual(["A", "B"]);
    // B's are not taken: C waits no longer than CONFIRM_WAIT_MS.
    clock.advance(CONFIRM_WAIT_MS - 1);
    await flush();
    expect(read).toEqual(["A", "B"]);
    clock.advance(1);
    await done;
    expect(read).toEqual(["A", "B", "C"]);
  });
});

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("SettledConfirmations: a failure", () => {
  it("never rejects: a kind whose confirmation throws has every key queued to read for itself", async () => {
    const queued: string[] = [];
    let reads = 0;
    const c = new SettledConfirmations({
      kindOf: (kind) => ({ kind, index: {} }) as unknown as AnyManagedKind,
      // Settled when released; the cache then fails to answer (a bug of its own).
      store: {
        get: () => {
          if (++reads > 2) throw new Error("cache unreadable");
          return {};
        },
      } as never,
      observer: { settled: () => true, confirm: async () => ({}) as never },
      observations: new Observations(() => 0),
      enqueue: (key) => queued.push(key),
      clock: new FakeClock(),
      log: pino({ level: "silent" }),
    });
    await c.release(["Widget/ns0/w0", "Widget/ns0/w1"]);
    expect(queued).toEqual(["Widget/ns0/w0", "Widget/ns0/w1"]);
  });
});
