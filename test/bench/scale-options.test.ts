import { describe, expect, it } from "vitest";
import { count, scaleOptions } from "../../bench/lib/scale-options.ts";

const defaults = { sizes: [100, 1000], repeats: 3, warmupSize: 100, rateSize: 1000, budgetMs: 720_000 };

describe("scaleOptions: an area's defaults, each overridable by its variable", () => {
  it("keeps the defaults without variables", () => {
    expect(scaleOptions(defaults, {})).toEqual(defaults);
  });

  it("takes the variables: sizes a list, an empty one none, the budget in seconds", () => {
    expect(
      scaleOptions(defaults, {
        BENCH_SCALE_SIZES: "1000, 2000",
        BENCH_SCALE_REPEATS: "1",
        BENCH_SCALE_RATE_SIZE: "0",
        BENCH_SCALE_BUDGET_S: "60",
      }),
    ).toEqual({ sizes: [1000, 2000], repeats: 1, warmupSize: 100, rateSize: 0, budgetMs: 60_000 });
    expect(scaleOptions(defaults, { BENCH_SCALE_SIZES: "" }).sizes).toEqual([]);
    expect(scaleOptions(defaults, { BENCH_SCALE_SIZES: "0" }).sizes).toEqual([]);
  });

  it("refuses a value that is not a whole number, naming the variable", () => {
    expect(() => scaleOptions(defaults, { BENCH_SCALE_SIZES: "1000,5k" })).toThrow(
      'BENCH_SCALE_SIZES: "5k" is not a whole number ≥ 0',
    );
    expect(() => scaleOptions(defaults, { BENCH_SCALE_REPEATS: "-1" })).toThrow(/BENCH_SCALE_REPEATS/);
    expect(() => count("BENCH_SCALE_50K_SIZE", " ")).toThrow(/BENCH_SCALE_50K_SIZE: " " is not/);
  });
});
