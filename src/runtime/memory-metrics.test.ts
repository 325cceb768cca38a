import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { keyed } from "./footprint.ts";
import { MemoryMetrics } from "./memory-metrics.ts";

/** A full collection, as `--expose-gc` would allow (the flag set at run time reaches a new context). */
function fullCollection(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

let metrics: MemoryMetrics | undefined;
afterEach(() => metrics?.stop());

describe("MemoryMetrics", () => {
  it("reports the heap retained after a full collection, read from a GC observer", async () => {
    const registry = new Registry();
    metrics = new MemoryMetrics(registry, () => ({}));
    fullCollection();
    // The observer is called after the collection, asynchronously.
    for (let i = 0; i < 100 && metrics.liveHeapBytes === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(metrics.liveHeapBytes).toBeGreaterThan(1024 * 1024);
    const text = await registry.getSingleMetricAsString("svc_operator_heap_live_bytes");
    expect(text).toContain(`svc_operator_heap_live_bytes ${metrics.liveHeapBytes}`);
  });

  it("reports the least reading of the last minute, or the latest when the minute had none", () => {
    let now = 0;
    metrics = new MemoryMetrics(new Registry(), () => ({}), { now: () => now });
    expect(metrics.liveHeapBytes).toBe(0);
    metrics.record(50);
    now = 10_000;
    metrics.record(56); // a collection amid a burst of short-lived work
    expect(metrics.liveHeapBytes).toBe(50);
    now = 65_000;
    expect(metrics.liveHeapBytes).toBe(56);
    metrics.record(57); // a leak raises every reading
    now = 130_000;
    expect(metrics.liveHeapBytes).toBe(57);
  });

  it("exports the entries of each per-object map, counted when scraped", async () => {
    const registry = new Registry();
    const queue = new Map([["Deployment/ns/a", 1]]);
    metrics = new MemoryMetrics(registry, () => ({ "queue.failures": keyed(queue) }));
    const scrape = () => registry.getSingleMetricAsString("svc_operator_runtime_map_entries");
    expect(await scrape()).toContain('svc_operator_runtime_map_entries{map="queue.failures"} 1');
    queue.clear();
    expect(await scrape()).toContain('svc_operator_runtime_map_entries{map="queue.failures"} 0');
  });
});
