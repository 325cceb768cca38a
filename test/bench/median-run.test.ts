import { describe, expect, it } from "vitest";
import { medianRunBy } from "../../bench/lib/median-run.ts";

describe("medianRunBy: the run whose figure is the median", () => {
  it("takes the whole middle run, whatever order the runs came in", () => {
    const runs = [
      { peak: 154, cpu: 1 },
      { peak: 141, cpu: 2 },
      { peak: 149, cpu: 3 },
    ];
    expect(medianRunBy(runs, (r) => r.peak)).toEqual({ peak: 149, cpu: 3 });
  });

  it("with an even count, the higher of the middle two", () => {
    expect(medianRunBy([1.9, 1.7, 1.8, 1.6], (r) => r)).toBe(1.8);
    expect(medianRunBy([2.1], (r) => r)).toBe(2.1);
  });
});
