import { describe, expect, it } from "vitest";
import { columnsOf, type ScaleRun, scaleRuns } from "../../bench/lib/scale-columns.ts";
import { scaleGoals } from "../../bench/lib/scale-goals.ts";
import { scaleTable, withTable } from "../../bench/lib/scale-table.ts";

/** The figures a scale run stores for one size, as bench/scale.ts names them. */
function sized(size: number, figures: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`n${size}.${k}`, v]));
}

const scale: ScaleRun = {
  area: "scale",
  date: "2026-11-28T06:30:00.000Z",
  figures: {
    loadAverage1m: 0.7,
    loadAverage1mAtEnd: 1.1,
    cpu: "Test CPU × 2",
    ...sized(100, { convergeMs: 900, dependentStartP95Ms: 94, dependentStartP95FloorMs: 20 }),
    ...sized(1000, {
      resources: 1005,
      convergeMs: 2628,
      neededCallsBoundMs: 1449,
      ratioToNeededCallsBound: 1.81,
      ratioToNeededCallsBoundRuns: [1.81, 1.75, 1.81],
      cpuMsWhileConverging: { operator: 1860, devclusterAndBench: 918, service: 380 },
      cpuMsPerReconcile: 1.45,
      resyncApiCalls: 14,
    }),
    ...sized(5000, {
      convergeMs: 10_425,
      neededCallsBoundMs: 7224,
      ratioToNeededCallsBound: 1.2,
      cpuMsPerReconcile: 1.15,
      resyncApiCalls: 14,
      "restart.readyzMs": 800,
    }),
    "rate20.n1000.convergeMs": 61_638,
  },
};

const fiftyK: ScaleRun = {
  area: "scale-50k",
  date: "2026-11-28T07:00:00.000Z",
  figures: {
    loadAverage1m: 2.5,
    cpu: "Test CPU × 2",
    ...sized(1000, { convergeMs: 2700, cpuMsPerReconcile: 1.0 }),
    ...sized(50_000, {
      convergeMs: 90_000,
      ratioToNeededCallsBound: 1.4,
      cpuMsPerReconcile: 1.15,
      operatorPeakRssMb: 250,
      apiCallsPerResourceWithoutAuditTrail: 1.18,
      resyncApiCalls: 15,
      "restart.firstMinuteCalls": 28,
      "restart.callsByRoute": { "GET /api/routes": 1 },
      "restart.callsGoal": "<= 2 per index scope",
    }),
  },
};

const line = (table: string, start: string) => table.split("\n").find((l) => l.startsWith(`| ${start}`));

describe("columnsOf: a column per size, from the first run that measured it", () => {
  it("takes 1,000 from scale and 50,000 from scale-50k, sizes in order; the rate run is no size", () => {
    const columns = columnsOf([scale, fiftyK]);
    expect(columns.map((c) => [c.size, c.run.area])).toEqual([
      [100, "scale"],
      [1000, "scale"],
      [5000, "scale"],
      [50_000, "scale-50k"],
    ]);
  });
});

describe("scaleTable: one table, sizes as columns", () => {
  const table = scaleTable([scale, fiftyK]);

  it("names each column's run and load, and the machine's CPU", () => {
    expect(table).toContain("CPU: Test CPU × 2\n");
    expect(table).toContain("|  | 100 | 1,000 | 5,000 | 50,000 |");
    expect(line(table, "run |")).toBe(
      "| run | scale, 2026-11-28 06:30 UTC | scale, 2026-11-28 06:30 UTC | scale, 2026-11-28 06:30 UTC | scale-50k, 2026-11-28 07:00 UTC |",
    );
    expect(line(table, "load average")).toContain("| 0.7 → 1.1 | 0.7 → 1.1 | 0.7 → 1.1 | 2.5 |");
  });

  it("shows the ratio with every run's, and the operator's CPU beside the bound", () => {
    expect(line(table, "**ratio**")).toContain("| **1.81** (1.81, 1.75, 1.81) | **1.20** |");
    expect(line(table, "operator CPU / bound")).toContain("| – | 1.28 | – | – |");
    expect(line(table, "operator CPU / converge")).toContain("| – | 0.71 |");
    expect(line(table, "dependents' start p95")).toContain("| 94 (20) | – |");
  });

  it("has a row for each restart figure any column has, one value each: not the calls by route or a goal's words", () => {
    expect(table).not.toContain("restart: callsByRoute");
    expect(table).not.toContain("restart: callsGoal");
    expect(line(table, "restart: firstMinuteCalls")).toBe("| restart: firstMinuteCalls | – | – | – | 28 |");
    expect(line(table, "restart: readyzMs")).toBe("| restart: readyzMs | – | – | 800 | – |");
  });

  it("says so when there are no figures", () => {
    expect(scaleTable([])).toMatch(/No scale figures yet/);
  });
});

describe("scaleGoals: each goal met or not, from the figures", () => {
  const goals = new Map(scaleGoals(columnsOf([scale, fiftyK])).map((g) => [g.label, g.cells]));

  it("checks each goal at the sizes it applies to", () => {
    expect(goals.get("ratio converge / bound")).toEqual(
      new Map([
        [5000, "≤ 1.25: met"],
        [50_000, "≤ 1.3: **not met**"],
      ]),
    );
    expect(goals.get("operator peak RSS")?.get(50_000)).toBe("≤ 256 MiB: met");
    expect(goals.get("service calls per resource, the audit trail's apart")?.get(50_000)).toBe("≤ 1.2: met");
    expect(goals.get("dependents' start p95")?.get(100)).toBe("≤ 100 ms: met");
  });

  it("compares the CPU per reconcile at 50,000 with 1,000's of the same run", () => {
    // 1.15 ms against the 50,000 run's own 1.0 ms at 1,000 (not scale's 1.45): within 20%.
    expect(goals.get("operator CPU per reconcile")).toEqual(
      new Map([
        [5000, "≤ 0.6 ms: **not met**"],
        [50_000, "≤ 1.2 × 1,000's (1.20 ms; same run): met"],
      ]),
    );
  });

  it("holds the peak RSS through the audit trail's catch-up to the goal too, when measured", () => {
    const later = { ...fiftyK, figures: { ...fiftyK.figures, "n50000.restart.peakRssMbUntilCaughtUp": 270 } };
    const cells = new Map(scaleGoals(columnsOf([scale, later])).map((g) => [g.label, g.cells]));
    expect(cells.get("operator peak RSS")?.get(50_000)).toBe("≤ 256 MiB: **not met**");
  });

  it("falls back to the table's 1,000 column, naming its run, when the run has none", () => {
    const alone = { ...fiftyK, figures: { ...fiftyK.figures, "n1000.cpuMsPerReconcile": undefined } };
    const cells = new Map(scaleGoals(columnsOf([scale, alone])).map((g) => [g.label, g.cells]));
    expect(cells.get("operator CPU per reconcile")?.get(50_000)).toBe(
      "≤ 1.2 × 1,000's (1.74 ms; scale's run): met",
    );
  });

  it("holds the resync flat against 1,000's, and says what was not measured", () => {
    expect(goals.get("calls of one resync, flat in N")).toEqual(
      new Map([
        [5000, "≤ 1,000's (14): met"],
        [50_000, "≤ 1,000's (14): **not met**"],
      ]),
    );
    const without = columnsOf([{ ...scale, figures: sized(5000, { convergeMs: 1 }) }]);
    expect(
      scaleGoals(without)
        .find((g) => g.label === "ratio converge / bound")
        ?.cells.get(5000),
    ).toBe("≤ 1.25: not measured");
  });

  it("puts each goal in the table under its size, and says which sizes have no column", () => {
    expect(line(scaleTable([scale, fiftyK]), "goal: operator peak RSS")).toBe(
      "| goal: operator peak RSS |  |  |  | ≤ 256 MiB: met |",
    );
    expect(line(scaleTable([scale]), "goal: operator peak RSS")).toBe(
      "| goal: operator peak RSS (at 50,000: not measured) |  |  |  |",
    );
  });
});

describe("withTable: the table written between a document's markers", () => {
  const start =
    "<!-- scale-table: written by `node scripts/proof-table.ts` from bench/results/latest.json -->";
  const end = "<!-- scale-table end -->";

  it("replaces what is between them, keeping the rest and the markers", () => {
    const doc = `# Proof\n\n${start}\n\nold table\n\n${end}\n\nafter\n`;
    expect(withTable(doc, "| new |\n")).toBe(`# Proof\n\n${start}\n\n| new |\n\n${end}\n\nafter\n`);
    expect(withTable(withTable(doc, "| new |\n"), "| new |\n")).toBe(withTable(doc, "| new |\n"));
  });

  it("refuses a document without them, naming them", () => {
    expect(() => withTable("# Proof\n", "| new |\n")).toThrow(/no scale table markers: "<!-- scale-table:/);
  });
});

describe("scaleRuns: the scale areas of latest.json", () => {
  it("takes scale then scale-50k, leaves out a failed run, and names the CPU from the area's record", () => {
    const runs = scaleRuns({
      areas: {
        scale: { date: "2026-11-27T14:53:46.797Z", cpus: 2, cpuModel: "Old CPU" },
        "scale-50k": { date: "2026-11-28T07:00:00.000Z", cpus: 2 },
      },
      results: { "scale-50k": { error: "timed out" }, scale: { "n1000.convergeMs": 2628 } },
    });
    expect(runs).toEqual([
      {
        area: "scale",
        date: "2026-11-27T14:53:46.797Z",
        figures: { cpu: "Old CPU × 2", "n1000.convergeMs": 2628 },
      },
    ]);
  });
});
