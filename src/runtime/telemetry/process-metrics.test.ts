import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { collectProcessMetrics, operatorRegistry, PROCESS_METRICS_BENCH_ENV } from "./process-metrics.ts";

const names = async (registry: Registry) => (await registry.getMetricsAsJSON()).map((m) => m.name).sort();

describe("process metrics", () => {
  it("prom-client's default collectors under their conventional names, no prefix", async () => {
    const registry = operatorRegistry({});
    const text = await registry.metrics();
    for (const name of [
      "process_resident_memory_bytes",
      "process_cpu_seconds_total",
      "process_open_fds",
      "process_start_time_seconds",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
    ])
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    expect(text).toMatch(/^process_resident_memory_bytes [1-9]\d*$/m);
  });

  it("one set of collectors per process, registered on each operator's registry", async () => {
    const a = operatorRegistry({});
    const b = new Registry();
    collectProcessMetrics(b);
    expect(await names(b)).toEqual(await names(a));
    expect(a.getSingleMetric("process_cpu_seconds_total")).toBe(
      b.getSingleMetric("process_cpu_seconds_total"),
    );
  });

  it("none when the bench's switch is off", async () => {
    expect(await names(operatorRegistry({ [PROCESS_METRICS_BENCH_ENV]: "off" }))).toEqual([]);
  });
});
