import { describe, expect, it } from "vitest";
import { startFloorP95 } from "../../bench/lib/scale-figures.ts";

describe("startFloorP95: the dependents' p95 no scheduling could beat", () => {
  it("is 0 when Readys come no faster than the connections take their children", () => {
    // 16 connections of 20 ms: a create every 1.25 ms.
    expect(startFloorP95([0, 2, 4, 6, 8], 16, 20)).toBe(0);
  });

  it("grows with the size of a wave of Readys: 200 children woken at once wait up to 250 ms", () => {
    const wave = Array.from({ length: 200 }, () => 1_000);
    // In wake order, the 190th child (p95 of 200) waits 189 creates of 1.25 ms.
    expect(startFloorP95(wave, 16, 20)).toBeCloseTo(236.25);
    // The same children woken in four waves 250 ms apart: 50 each, none waits past 61.25 ms.
    const spread = wave.map((t, i) => t + Math.floor(i / 50) * 250);
    expect(startFloorP95(spread, 16, 20)).toBeLessThanOrEqual(61.25);
  });
});
