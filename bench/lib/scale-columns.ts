// The scale bench's figures by size: a column per size, from the run (bench area) that measured it.

type Figures = Record<string, unknown>;

/** One run of a scale area, as stored in bench/results/latest.json. */
export interface ScaleRun {
  /** The bench area: scale or scale-50k. */
  area: string;
  /** When the run started (ISO). */
  date: string;
  figures: Figures;
}

/** One size's figures, from the run that measured it. */
export interface Column {
  size: number;
  run: ScaleRun;
}

/** A figure of a column: `n<size>.<name>` of its run. */
export const figure = (col: Column | undefined, name: string): unknown =>
  col?.run.figures[`n${col.size}.${name}`];

/** A figure of a column as a number (undefined when not measured or not a number). */
export function num(col: Column | undefined, name: string): number | undefined {
  const value = figure(col, name);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The operator's CPU time while its set converged (ms; start-up included). */
export function operatorCpuMs(col: Column | undefined): number | undefined {
  const cpu = figure(col, "cpuMsWhileConverging") as { operator?: unknown } | undefined;
  return typeof cpu?.operator === "number" ? cpu.operator : undefined;
}

/** The sizes a run measured: those it has a converge time for (the rate-limited run apart). */
export function sizesOf(figures: Figures): number[] {
  return Object.keys(figures)
    .flatMap((key) => {
      const m = /^n(\d+)\.convergeMs$/.exec(key);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

/** Each size measured by any run, from the first run (in the order given) that measured it. */
export function columnsOf(runs: ScaleRun[]): Column[] {
  const bySize = new Map<number, Column>();
  for (const run of runs)
    for (const size of sizesOf(run.figures)) if (!bySize.has(size)) bySize.set(size, { size, run });
  return [...bySize.values()].sort((a, b) => a.size - b.size);
}

/** What bench/results/latest.json holds of an area: when and on what it ran, and its figures. */
interface Stored {
  areas: Record<string, { date: string; cpus: number; cpuModel?: string }>;
  results: Record<string, Figures | { error: string }>;
}

/**
 * The scale areas' runs in bench/results/latest.json, `scale` first (a size both measured is
 * shown from it); an area whose last run failed is left out.
 */
export function scaleRuns({ areas, results }: Stored): ScaleRun[] {
  const runs: ScaleRun[] = [];
  for (const area of ["scale", "scale-50k"]) {
    const figures = results[area];
    if (!figures || "error" in figures) continue;
    const meta = areas[area];
    const date = typeof figures.startedAt === "string" ? figures.startedAt : (meta?.date ?? "?");
    const cpu = meta?.cpuModel && `${meta.cpuModel} × ${meta.cpus}`;
    runs.push({ area, date, figures: { cpu, ...figures } });
  }
  return runs;
}
