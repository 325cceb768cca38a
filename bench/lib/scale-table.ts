// The scale bench's figures as one table: sizes as columns, figures and goals as rows. A size
// is taken from the first run that measured it, so `npm run bench -- scale` (1,000 to 10,000)
// and `npm run bench -- scale-50k` (50,000) join in one table, each column naming its run.
import { type Column, columnsOf, figure, num, operatorCpuMs, type ScaleRun } from "./scale-columns.ts";
import { scaleGoals } from "./scale-goals.ts";

/** A row's cell for one column: text, or undefined when the column did not measure it. */
type Cell = (col: Column) => string | undefined;

const thousands = (n: number) => n.toLocaleString("en-US");
const fixed = (digits: number) => (n: number | undefined) =>
  n === undefined ? undefined : n.toFixed(digits);
const seconds = (ms: number | undefined) =>
  ms === undefined ? undefined : (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
const ratioOf = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? undefined : (a / b).toFixed(2);
const text = (value: unknown) =>
  value === undefined ? undefined : typeof value === "object" ? JSON.stringify(value) : String(value);

/** The figure rows: label and cell. */
const ROWS: [string, Cell][] = [
  ["resources", (c) => (num(c, "resources") === undefined ? undefined : thousands(num(c, "resources")!))],
  ["converge (s, from the operator's start)", (c) => seconds(num(c, "convergeMs"))],
  ["needed-calls bound (s: needed calls × 20 ms / 16)", (c) => seconds(num(c, "neededCallsBoundMs"))],
  [
    "**ratio** converge / bound (every run's)",
    (c) => {
      const ratio = fixed(2)(num(c, "ratioToNeededCallsBound"));
      const runs = figure(c, "ratioToNeededCallsBoundRuns");
      return ratio && Array.isArray(runs) ? `**${ratio}** (${runs.join(", ")})` : ratio && `**${ratio}**`;
    },
  ],
  ["operator CPU while converging (s, start-up included)", (c) => seconds(operatorCpuMs(c))],
  [
    "operator CPU / bound (≥ 1: its CPU alone outlasts the bound)",
    (c) => ratioOf(operatorCpuMs(c), num(c, "neededCallsBoundMs")),
  ],
  ["operator CPU / converge (near 1: CPU-bound)", (c) => ratioOf(operatorCpuMs(c), num(c, "convergeMs"))],
  ["operator CPU per reconcile (ms, start-up apart)", (c) => fixed(2)(num(c, "cpuMsPerReconcile"))],
  [
    "service calls per resource, the audit trail's apart",
    (c) => fixed(2)(num(c, "apiCallsPerResourceWithoutAuditTrail")),
  ],
  ["audit trail calls per resource", (c) => fixed(2)(num(c, "auditTrailCallsPerResource"))],
  [
    "Kubernetes writes per resource, Events included (the audit trail's apart)",
    (c) => fixed(2)(num(c, "kubeWritesPerResourceWithoutAuditTrail")),
  ],
  ["operator peak RSS when converged (MiB, VmHWM)", (c) => text(num(c, "operatorPeakRssMb"))],
  ["calls of one resync", (c) => text(num(c, "resyncApiCalls"))],
  [
    "dependents' start p95 (ms; the floor no order of the children beats)",
    (c) => {
      const p95 = num(c, "dependentStartP95Ms");
      const floor = num(c, "dependentStartP95FloorMs");
      return p95 === undefined ? undefined : `${p95} (${floor ?? "?"})`;
    },
  ],
];

/**
 * The restart figures any column has (`n<size>.restart.<name>`), as rows: those that are one
 * value (the calls by route and the goals' wording stay in latest.json's every figure).
 */
function restartRows(columns: Column[]): [string, Cell][] {
  const names = new Set<string>();
  for (const col of columns) {
    const prefix = `n${col.size}.restart.`;
    for (const [key, value] of Object.entries(col.run.figures))
      if (key.startsWith(prefix) && !key.endsWith("Goal") && (typeof value !== "object" || value === null))
        names.add(key.slice(prefix.length));
  }
  return [...names].sort().map((name) => [`restart: ${name}`, (c) => text(figure(c, `restart.${name}`))]);
}

const unmeasured = (sizes: number[]) =>
  sizes.length === 0 ? "" : ` (at ${sizes.map(thousands).join(", ")}: not measured)`;
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

/** The load average (1 min) at the run's start, and at its end when recorded. */
function loadOf(run: ScaleRun): string {
  const [start, end] = [run.figures.loadAverage1m, run.figures.loadAverage1mAtEnd];
  const load = (value: unknown) => (typeof value === "number" ? value.toFixed(1) : "?");
  return `${load(start)}${end === undefined ? "" : ` → ${load(end)}`}`;
}

/**
 * The markdown of the one table: a line naming the machine's CPU, then a column per size (each
 * naming its run and the machine's load), the figure rows, the restart rows and the goal rows
 * (met or not, computed from the figures: see scale-goals.ts).
 */
export function scaleTable(runs: ScaleRun[]): string {
  const columns = columnsOf(runs);
  if (columns.length === 0) return "No scale figures yet (`npm run bench -- scale`).\n";
  const cpus = [...new Set(columns.map((c) => text(c.run.figures.cpu) ?? "not recorded"))];
  const cells = (cell: Cell) => columns.map((c) => cell(c) ?? "–");
  const lines = [
    `CPU: ${cpus.join("; ")}`,
    "",
    row(["", ...columns.map((c) => thousands(c.size))]),
    row(["---", ...columns.map(() => "---")]),
    row(["run", ...cells((c) => `${c.run.area}, ${c.run.date.slice(0, 16).replace("T", " ")} UTC`)]),
    row(["load average (1 min) at its start → end", ...cells((c) => loadOf(c.run))]),
    ...[...ROWS, ...restartRows(columns)].map(([label, cell]) => row([label, ...cells(cell)])),
    ...scaleGoals(columns).map((goal) =>
      row([
        `goal: ${goal.label}${unmeasured(goal.unmeasured)}`,
        ...columns.map((c) => goal.cells.get(c.size) ?? ""),
      ]),
    ),
  ];
  return `${lines.join("\n")}\n`;
}

const START = "<!-- scale-table: written by `node scripts/proof-table.ts` from bench/results/latest.json -->";
const END = "<!-- scale-table end -->";

/** A document with the table between its markers replaced by `table` (the markers kept). */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(
      `the document has no scale table markers: "${START}" then "${END}", each on its own line`,
    );
  return `${doc.slice(0, start + START.length)}\n\n${table}\n${doc.slice(end)}`;
}
