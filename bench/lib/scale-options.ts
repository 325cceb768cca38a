// What a scale bench area runs: `npm run bench -- scale` and `scale-50k` differ only in these.

/** What a scale area runs (bench/scale.ts runScale). */
export interface ScaleOptions {
  /** The sizes reported, each a fresh set; "" or 0 in BENCH_SCALE_SIZES: none (the rate run alone). */
  sizes: number[];
  /** Runs of each size up to 1,000; the median run is reported. */
  repeats: number;
  /** The unreported run that brings the devcluster's code to speed (0: none). */
  warmupSize: number;
  /** The size run at the default --api-rate 20 (0: none). */
  rateSize: number;
  /** The time the whole area may take: a phase that would not fit is reported as skipped. */
  budgetMs: number;
}

/**
 * The options of a scale area, each overridable by its BENCH_SCALE_* variable (BENCH_SCALE_SIZES
 * a comma-separated list; "" or 0 for none). A value that is not a whole number ≥ 0 is refused,
 * naming the variable: a typo must not quietly run another bench.
 */
export function scaleOptions(defaults: ScaleOptions, env = process.env): ScaleOptions {
  const n = (name: string, fallback: number) => (env[name] === undefined ? fallback : count(name, env[name]));
  const sizes = env.BENCH_SCALE_SIZES;
  return {
    sizes:
      sizes === undefined
        ? defaults.sizes
        : sizes
            .split(",")
            .filter((s) => s.trim() !== "")
            .map((s) => count("BENCH_SCALE_SIZES", s))
            .filter((size) => size > 0),
    repeats: n("BENCH_SCALE_REPEATS", defaults.repeats),
    warmupSize: n("BENCH_SCALE_WARMUP", defaults.warmupSize),
    rateSize: n("BENCH_SCALE_RATE_SIZE", defaults.rateSize),
    budgetMs: n("BENCH_SCALE_BUDGET_S", defaults.budgetMs / 1000) * 1000,
  };
}

/** A whole number ≥ 0 from an environment variable, or an error naming it. */
export function count(name: string, value: string): number {
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isInteger(n) || n < 0)
    throw new Error(`${name}: "${value}" is not a whole number ≥ 0`);
  return n;
}
