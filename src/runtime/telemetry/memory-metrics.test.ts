import { constants } from "node:perf_hooks";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { keyed } from "../../lib/index.ts";
import { isFullCollection, MemoryMetrics, oldSpaceBytes } from "./memory-metrics.ts";

let metrics: MemoryMetrics | undefined;
afterEach(() => metrics?.stop());

describe("MemoryMetrics", () => {
  it.each([
    { reason: "a full collection V8 ran", kind: constants.NODE_PERFORMANCE_GC_MAJOR, flags: 0, full: true },
    {
      reason: "one V8 ran with other flags",
      kind: constants.NODE_PERFORMANCE_GC_MAJOR,
      flags: constants.NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE,
      full: true,
    },
    {
      reason: "one a tool forced (gc(), a heap snapshot): the soak's own measure, not the operator's",
      kind: constants.NODE_PERFORMANCE_GC_MAJOR,
      flags: constants.NODE_PERFORMANCE_GC_FLAGS_FORCED,
      full: false,
    },
    {
      reason: "a young-generation collection",
      kind: constants.NODE_PERFORMANCE_GC_MINOR,
      flags: 0,
      full: false,
    },
    {
      reason: "an incremental marking step",
      kind: constants.NODE_PERFORMANCE_GC_INCREMENTAL,
      flags: 0,
      full: false,
    },
  ])("counts $reason: $full", ({ kind, flags, full }) => {
    expect(isFullCollection({ entryType: "gc", detail: { kind, flags } } as never)).toBe(full);
  });

  it("reads the old spaces, which hold what survives", () => {
    expect(oldSpaceBytes()).toBeGreaterThan(1024 * 1024);
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
