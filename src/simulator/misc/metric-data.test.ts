import { describe, expect, it } from "vitest";
import {
  MAX_POINTS,
  METRIC_CATALOG,
  metricId,
  metricPoints,
  relativeWindow,
  sampleTimes,
  stepFor,
} from "./metric-data.ts";

const now = Date.UTC(2026, 10, 22, 4, 0, 30);

describe("metric windows", () => {
  const cases: { reason: string; start: number; end: number; count: number }[] = [
    { reason: "last 10 minutes: one point a minute", start: -600, end: 0, count: 10 },
    { reason: "an empty window", start: 0, end: 0, count: 0 },
    { reason: "a window in the past", start: -3600, end: -1800, count: 30 },
    { reason: "one day is still per minute", start: -86_400, end: 0, count: 1440 },
    { reason: "a week is capped", start: -7 * 86_400, end: 0, count: 1440 },
  ];
  it.each(cases)("$reason", ({ start, end, count }) => {
    const window = relativeWindow(now, start, end);
    const times = sampleTimes(window);
    expect(times).toHaveLength(count);
    for (const t of times) {
      expect(t).toBeGreaterThanOrEqual(window.startSeconds);
      expect(t).toBeLessThan(window.endSeconds);
    }
  });

  it("coarsens the step so no window has more than MAX_POINTS points", () => {
    const year = 365 * 86_400;
    expect(stepFor(600)).toBe(60);
    expect(year / stepFor(year)).toBeLessThanOrEqual(MAX_POINTS);
  });
});

describe("metricPoints", () => {
  const load = METRIC_CATALOG.find((m) => metricId(m) === "load:load")!;
  const times = sampleTimes(relativeWindow(now, -600, 0));

  it("gives every variable one finite, non-negative number per sample time", () => {
    const data = metricPoints(load, "instance-1", times);
    expect(data.map((d) => d.variable)).toEqual(["shortterm", "midterm", "longterm"]);
    for (const { points } of data) {
      expect(points).toHaveLength(times.length);
      for (const p of points) expect(Number.isFinite(p) && p >= 0).toBe(true);
    }
  });

  it("is deterministic per seed and time, and differs between instances", () => {
    expect(metricPoints(load, "instance-1", times)).toEqual(metricPoints(load, "instance-1", times));
    expect(metricPoints(load, "instance-1", times)).not.toEqual(metricPoints(load, "instance-2", times));
  });

  it("answers the same value for a time shared by overlapping windows", () => {
    const a = metricPoints(load, "i", sampleTimes(relativeWindow(now, -600, 0)));
    const b = metricPoints(load, "i", sampleTimes(relativeWindow(now, -300, 0)));
    expect(a[0].points.slice(5)).toEqual(b[0].points);
  });

  it("has unique ids in the catalog", () => {
    const ids = METRIC_CATALOG.map(metricId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
