/**
 * Of runs repeated because one run is noisy, the one whose `figure` is the median: its other
 * figures come from the same run, not a mix of runs. With an even count (a budget that cut a run),
 * the higher of the middle two: for the figures it serves (a ratio, a peak), the worse.
 */
export function medianRunBy<T>(runs: T[], figure: (run: T) => number): T {
  const sorted = [...runs].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median of the figures (with an even count, the higher of the middle two). */
export function median(xs: number[]): number {
  return medianRunBy(xs, (x) => x);
}
