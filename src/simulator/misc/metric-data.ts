/**
 * Monitoring metric data of the simulator (spec 4.18): a fixed catalog of collectd-style
 * metrics and deterministic points, so the same window always answers the same numbers
 * and tests can check counts and timestamps.
 */

/** A metric as the simulator knows it: id `<plugin>:<view>` and its variables. */
export interface MetricDefinition {
  plugin: string;
  view: string;
  variables: readonly string[];
  /** Typical level and swing of the values (the shape of a plausible graph). */
  base: number;
  swing: number;
}

/** The metrics every running instance of the seed reports. */
export const METRIC_CATALOG: readonly MetricDefinition[] = [
  { plugin: "cpu-0", view: "cpu-idle", variables: ["value"], base: 80, swing: 15 },
  { plugin: "cpu-0", view: "cpu-user", variables: ["value"], base: 12, swing: 10 },
  { plugin: "load", view: "load", variables: ["shortterm", "midterm", "longterm"], base: 0.6, swing: 0.4 },
  { plugin: "memory", view: "memory-free", variables: ["value"], base: 2.1e9, swing: 4e8 },
  { plugin: "interface-eth0", view: "if_octets", variables: ["rx", "tx"], base: 5e5, swing: 3e5 },
  { plugin: "df-root", view: "df_complex-free", variables: ["value"], base: 4.2e10, swing: 1e8 },
];

export function metricId(metric: { plugin: string; view: string }): string {
  return `${metric.plugin}:${metric.view}`;
}

/** Points of one window are spaced `step` seconds: one minute, coarser for long windows. */
export const BASE_STEP_SECONDS = 60;
export const MAX_POINTS = 1440;

export function stepFor(spanSeconds: number): number {
  if (spanSeconds <= BASE_STEP_SECONDS * MAX_POINTS) return BASE_STEP_SECONDS;
  return Math.ceil(spanSeconds / MAX_POINTS / BASE_STEP_SECONDS) * BASE_STEP_SECONDS;
}

export interface MetricWindow {
  /** Epoch seconds, inclusive. */
  startSeconds: number;
  /** Epoch seconds, exclusive. */
  endSeconds: number;
}

/** The window of a data call: `start` and `end` are seconds relative to `nowMs` (0 or negative). */
export function relativeWindow(nowMs: number, start: number, end: number): MetricWindow {
  const now = Math.floor(nowMs / 1000);
  return { startSeconds: now + start, endSeconds: now + end };
}

/** Sample times in the window: the multiples of the step in [start, end). */
export function sampleTimes(
  window: MetricWindow,
  step = stepFor(window.endSeconds - window.startSeconds),
): number[] {
  const times: number[] = [];
  for (let t = Math.ceil(window.startSeconds / step) * step; t < window.endSeconds; t += step) times.push(t);
  return times;
}

export interface VariableData {
  variable: string;
  points: number[];
}

/**
 * Values of every variable of `metric` at the sample times, a smooth daily wave plus
 * noise, both derived from (`seed`, variable, time) only.
 */
export function metricPoints(
  metric: MetricDefinition,
  seed: string,
  times: readonly number[],
): VariableData[] {
  return metric.variables.map((variable, index) => {
    const phase = hash(`${seed}|${metricId(metric)}|${variable}`) * 2 * Math.PI;
    const scale = 1 - index * 0.2;
    const points = times.map((t) => {
      const wave = Math.sin((2 * Math.PI * t) / 86_400 + phase);
      const noise = hash(`${seed}|${variable}|${t}`) * 2 - 1;
      const value = scale * (metric.base + metric.swing * (0.7 * wave + 0.3 * noise));
      return Math.round(Math.max(0, value) * 1000) / 1000;
    });
    return { variable, points };
  });
}

/** A number in [0, 1) from a string (FNV-1a), stable across runs. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 0x1_0000_0000;
}
