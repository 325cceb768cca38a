import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Condition } from "../../src/runtime/sdk/index.ts";
import {
  conditionsFor,
  ErrorReasons,
  EventReason,
  EventTypes,
  type Outcome,
  outcomeEvent,
  ProgressingReasons,
  ReadyReasons,
  Reason,
  TerminalReasons,
  WaitingReasons,
} from "../../src/runtime/sdk/index.ts";

/**
 * The documented tables of conditions and events are the code's: every (condition, status,
 * reason) the outcome mapping can produce, every event reason with its type, and nothing else.
 * The outcomes carry only the reasons result.ts lists for them (the error classes take no other),
 * so enumerating those lists through `conditionsFor` and `outcomeEvent` is all there can be.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const REASONS = new Set<string>(Object.values(Reason));
const NOW = new Date("2026-01-01T00:00:00Z");

/** Every outcome the reconcilers can end with: each outcome type with each of its reasons. */
function allOutcomes(): Outcome[] {
  const m = "m";
  return [
    ...ReadyReasons.map((reason): Outcome => ({ type: "ready", reason, message: m })),
    ...ProgressingReasons.map(
      (reason): Outcome => ({ type: "progressing", reason, message: m, requeueAfterMs: 1 }),
    ),
    ...WaitingReasons.map((reason): Outcome => ({ type: "waiting", reason, message: m, requeueAfterMs: 1 })),
    ...TerminalReasons.map((reason): Outcome => ({ type: "terminal", reason, message: m })),
    ...ErrorReasons.map((reason): Outcome => ({ type: "error", reason, message: m })),
    { type: "paused" },
  ];
}

const key = (type: string, status: string, reason: string) => `${type}=${status} ${reason}`;

/** Every `Type=Status reason` the mapping produces, from a new object and from a Ready one. */
function producedConditions(): Set<string> {
  const ready: Condition = {
    type: "Ready",
    status: "True",
    reason: Reason.Available,
    message: "",
    lastTransitionTime: NOW.toISOString(),
  };
  const out = new Set<string>();
  for (const outcome of allOutcomes())
    for (const before of [[], [ready]])
      for (const c of conditionsFor(outcome, before, 1, NOW)) out.add(key(c.type, c.status, c.reason));
  return out;
}

/** Every event reason the outcome mapping makes, and those the phases and the Account controller name in code. */
function emittedEvents(): Set<string> {
  const out = new Set<string>();
  for (const outcome of allOutcomes()) {
    const event = outcomeEvent(outcome, undefined);
    if (event) out.add(event.reason);
  }
  const sources = [
    ...readdirSync(join(ROOT, "src", "runtime", "reconcile")).map((f) => `src/runtime/reconcile/${f}`),
    "src/runtime/accounts/accounts.ts",
  ].filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  for (const file of sources)
    for (const [, reason] of read(file).matchAll(/EventReason\.(\w+)/g)) out.add(reason!);
  return out;
}

/** The rows of the markdown table whose header starts with `| first |`, cells trimmed. */
function table(text: string, first: string, after = ""): string[][] {
  const lines = text.slice(text.indexOf(after)).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `a table starting with "${first}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const CONDITIONS = new Set(["Ready", "Synced", "Reconciling", "Stalled"]);

/** The reason-like words in backticks of a cell (`Available`; not `cloud.svc.io/href`, `SVC_X` or `Ready`). */
function reasonsIn(cell: string): string[] {
  return [...cell.matchAll(/`([A-Z][a-z]+[A-Za-z]*)`/g)].map((m) => m[1]!).filter((w) => !CONDITIONS.has(w));
}

/** `Type=Status reason` for every reason a conditions table lists, by its condition and column. */
function documentedConditions(rows: string[][]): Set<string> {
  const out = new Set<string>();
  for (const [condition, whenTrue, whenFalse] of rows) {
    const type = condition!.replace(/`/g, "");
    for (const r of reasonsIn(whenTrue!)) out.add(key(type, "True", r));
    for (const r of reasonsIn(whenFalse!)) out.add(key(type, "False", r));
  }
  return out;
}

describe("condition tables", () => {
  const produced = producedConditions();

  it("every Reason constant is one the outcome mapping produces (no dead reasons)", () => {
    const used = new Set([...produced].map((k) => k.split(" ")[1]!));
    expect([...REASONS].filter((r) => !used.has(r))).toEqual([]);
  });

  it("docs/operator.md's conditions reference lists exactly what the code produces", () => {
    const rows = table(read("docs/operator.md"), "condition", "## Conditions reference");
    const documented = documentedConditions(rows);
    for (const r of [...documented].map((k) => k.split(" ")[1]!)) expect(REASONS, r).toContain(r);
    expect([...produced].filter((k) => !documented.has(k)).sort(), "produced, not documented").toEqual([]);
    expect([...documented].filter((k) => !produced.has(k)).sort(), "documented, never produced").toEqual([]);
  });

  it("README's conditions table names only what the code produces, on the condition and status it says", () => {
    const documented = documentedConditions(
      table(read("README.md"), "condition", "## Status and conditions"),
    );
    expect([...documented].filter((k) => !produced.has(k)).sort()).toEqual([]);
    expect(documented.size).toBeGreaterThan(8);
  });

  it("docs/troubleshooting.md: each reason row names a Reason; 'Working as intended' pairs are produced", () => {
    const text = read("docs/troubleshooting.md");
    for (const first of ["reason | condition", "reason | meaning"]) {
      let from = 0;
      for (;;) {
        const at = text.indexOf(`| ${first} |`, from);
        if (at < 0) break;
        from = at + 1;
        for (const row of table(text.slice(at), first.split(" | ")[0]!)) {
          const named = reasonsIn(row[0]!);
          for (const r of named) expect(REASONS, `${row[0]}`).toContain(r);
          if (first !== "reason | condition") continue;
          for (const [, type, status] of row[1]!.matchAll(/(Ready|Synced|Reconciling|Stalled)=(True|False)/g))
            for (const r of named)
              expect(produced, `${row[0]} | ${row[1]}`).toContain(key(type!, status!, r));
        }
      }
    }
    for (const r of REASONS) expect(text, r).toContain(`\`${r}\``);
  });

  it("README's troubleshooting table names only Reasons", () => {
    for (const row of table(read("README.md"), "reason", "## Troubleshooting"))
      for (const r of reasonsIn(row[0]!)) expect(REASONS, row[0]).toContain(r);
  });
});

describe("events table", () => {
  it("docs/operator.md lists every event reason with its one type, and nothing else", () => {
    const rows = table(read("docs/operator.md"), "event", "## Events");
    // A deletion waiting on a resource nobody deletes is a Warning (BlockedError.needsAction).
    const types = { ...EventTypes, DeletionBlocked: "Normal or Warning" };
    expect(Object.fromEntries(rows.map((r) => [r[0]!.replace(/`/g, ""), r[1]!]))).toEqual(types);
  });

  it("every EventReason constant is emitted somewhere (no dead event reasons)", () => {
    const emitted = emittedEvents();
    expect(Object.values(EventReason).filter((r) => !emitted.has(r))).toEqual([]);
  });
});
