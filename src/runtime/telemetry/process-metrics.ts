import { collectDefaultMetrics, Gauge, type Metric, Registry } from "prom-client";

/**
 * The environment switch `npm run bench collectors` sets to `off` to measure what the collectors
 * cost against the same operator without them. Not documented as a setting: the collectors are
 * part of the product.
 */
export const PROCESS_METRICS_BENCH_ENV = "SVC_OPERATOR_BENCH_PROCESS_METRICS";

let processRegistry: Registry | undefined;

/**
 * prom-client's default collectors on the operator's registry: `process_*` (resident memory, CPU
 * seconds, open and max file descriptors, start time) and `nodejs_*` (heap and its spaces,
 * event-loop lag, GC durations, active handles, version), under their conventional names with no
 * prefix, so the memory and saturation alerts and dashboards every Prometheus user has work on
 * the operator as they are.
 *
 * Left out: prom-client's `nodejs_active_{handles,requests,resources}_total`, gauges with a
 * counter's suffix, which `promtool check metrics` refuses; each is the sum of the labelled family
 * of the same name without it (`sum(nodejs_active_handles)`).
 *
 * They describe the process, not an Operator, and prom-client cannot stop the event-loop monitor
 * and GC observer they start: they are made once per process and the same metric objects are
 * registered on each registry asked for (the `run` and `dev` commands; tests that start several
 * operators in one process).
 */
export function collectProcessMetrics(registry: Registry): void {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  // getMetricsAsArray is typed as the JSON shape, but returns the metric objects themselves.
  for (const metric of processRegistry.getMetricsAsArray()) {
    if (metric instanceof Gauge && metric.name.endsWith("_total")) continue;
    registry.registerMetric(metric as unknown as Metric);
  }
}

/** Whether the command's environment asks for the operator without them (the bench's B side). */
export function processMetricsWanted(env: NodeJS.ProcessEnv): boolean {
  return env[PROCESS_METRICS_BENCH_ENV] !== "off";
}

/** A registry for one operator of a command: the process metrics on it unless the bench says off. */
export function operatorRegistry(env: NodeJS.ProcessEnv): Registry {
  const registry = new Registry();
  if (processMetricsWanted(env)) collectProcessMetrics(registry);
  return registry;
}
