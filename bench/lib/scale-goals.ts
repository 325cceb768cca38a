// The scale bench's goals (issue 39), each checked against the figures of the size it applies
// to: a goal's cell says its rule and whether the figure meets it, never a verdict kept by hand.
import { type Column, figure, num } from "./scale-columns.ts";

/** A goal at one size: its rule as read, and the figure and the limit it is checked by. */
interface GoalAt {
  size: number;
  rule: (columns: Map<number, Column>) => string;
  value: (columns: Map<number, Column>) => number | undefined;
  limit: (columns: Map<number, Column>) => number | undefined;
}

interface GoalSpec {
  label: string;
  at: GoalAt[];
}

/** A goal as the table shows it: a cell per size it applies to (`≤ 1.3: met`). */
export interface Goal {
  label: string;
  cells: Map<number, string>;
  /** The sizes it applies to that the table has no column for. */
  unmeasured: number[];
}

const below = (size: number, name: string, limit: number, unit = ""): GoalAt => ({
  size,
  rule: () => `≤ ${limit}${unit}`,
  value: (cols) => num(cols.get(size), name),
  limit: () => limit,
});

/**
 * The operator's CPU per reconcile at 1,000 in the run that measured `size` (the goal compares
 * within one run: the machine's load moves CPU figures between runs); else the table's 1,000
 * column, which the rule then says.
 */
function cpuAt1000(cols: Map<number, Column>, size: number): { ms: number | undefined; run: string } {
  const col = cols.get(size);
  const same = col?.run.figures["n1000.cpuMsPerReconcile"];
  if (typeof same === "number") return { ms: same, run: "same run" };
  const other = cols.get(1000);
  return { ms: num(other, "cpuMsPerReconcile"), run: other ? `${other.run.area}'s run` : "not measured" };
}

const cpuWithinOf1000 = (size: number): GoalAt => ({
  size,
  rule: (cols) => {
    const { ms, run } = cpuAt1000(cols, size);
    const limit = ms === undefined ? "?" : (ms * 1.2).toFixed(2);
    return `≤ 1.2 × 1,000's (${limit} ms; ${run})`;
  },
  value: (cols) => num(cols.get(size), "cpuMsPerReconcile"),
  limit: (cols) => {
    const { ms } = cpuAt1000(cols, size);
    return ms === undefined ? undefined : ms * 1.2;
  },
});

/** The operator's peak RSS at `size`: through the audit trail's catch-up when measured, which comes last. */
const rssBelow = (size: number, limit: number): GoalAt => ({
  size,
  rule: () => `≤ ${limit} MiB`,
  value: (cols) => {
    const col = cols.get(size);
    const peaks = [num(col, "operatorPeakRssMb"), num(col, "restart.peakRssMbUntilCaughtUp")];
    const known = peaks.filter((p) => p !== undefined);
    return known.length === 0 ? undefined : Math.max(...known);
  },
  limit: () => limit,
});

const resyncFlat = (size: number): GoalAt => ({
  size,
  rule: (cols) => `≤ 1,000's (${figure(cols.get(1000), "resyncApiCalls") ?? "?"})`,
  value: (cols) => num(cols.get(size), "resyncApiCalls"),
  limit: (cols) => num(cols.get(1000), "resyncApiCalls"),
});

const GOALS: GoalSpec[] = [
  {
    label: "ratio converge / bound",
    at: [below(5000, "ratioToNeededCallsBound", 1.25), below(50_000, "ratioToNeededCallsBound", 1.3)],
  },
  {
    label: "operator CPU per reconcile",
    at: [below(5000, "cpuMsPerReconcile", 0.6, " ms"), cpuWithinOf1000(50_000)],
  },
  { label: "operator peak RSS", at: [rssBelow(50_000, 256)] },
  {
    label: "service calls per resource, the audit trail's apart",
    at: [below(50_000, "apiCallsPerResourceWithoutAuditTrail", 1.2)],
  },
  { label: "calls of one resync, flat in N", at: [5000, 10_000, 50_000].map(resyncFlat) },
  { label: "dependents' start p95", at: [below(100, "dependentStartP95Ms", 100, " ms")] },
];

/** The goals, each with a cell for every size of the table it applies to. */
export function scaleGoals(columns: Column[]): Goal[] {
  const cols = new Map(columns.map((c) => [c.size, c]));
  return GOALS.map(({ label, at }) => ({
    label,
    cells: new Map(
      at
        .filter((goal) => cols.has(goal.size))
        .map((goal) => [goal.size, `${goal.rule(cols)}: ${verdict(goal.value(cols), goal.limit(cols))}`]),
    ),
    unmeasured: at.map((goal) => goal.size).filter((size) => !cols.has(size)),
  }));
}

function verdict(value: number | undefined, limit: number | undefined): string {
  if (value === undefined || limit === undefined) return "not measured";
  return value <= limit ? "met" : "**not met**";
}
