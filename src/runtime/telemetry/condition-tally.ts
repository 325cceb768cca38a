import type { Condition } from "../sdk/index.ts";

type Counted = { status?: { conditions?: readonly Condition[] } } | undefined;

/** The statuses a row counts, in its order. */
export const CONDITION_STATUSES = ["True", "False", "Unknown"] as const;

/** Condition types counted (as 0) even before any object has them. */
const COUNTED_CONDITIONS = ["Ready", "Synced", "Reconciling", "Stalled"];

/**
 * Custom resources by kind, condition type and status, kept as the informer cache changes: each
 * change moves the object's old conditions out and its new ones in. A scrape then reads a few rows
 * per kind, not every cached object: at 50,000 resources a count per scrape cost milliseconds, and
 * a poller scraping every 100 ms made it grow with the number of objects.
 */
export class ConditionTally {
  private readonly byKind = new Map<string, Map<string, number[]>>();

  /** Kinds shown with zero rows before any of their objects is cached. */
  track(kinds: Iterable<string>): void {
    for (const kind of kinds) this.rowsOf(kind);
  }

  /** An object of `kind` changed in the cache: `before` is the version counted so far (undefined when new). */
  change(kind: string, before: Counted, after: Counted): void {
    const rows = this.rowsOf(kind);
    this.add(rows, before, -1);
    this.add(rows, after, 1);
  }

  /** Each kind's rows: condition type to counts in CONDITION_STATUSES order. */
  kinds(): IterableIterator<[string, ReadonlyMap<string, readonly number[]>]> {
    return this.byKind.entries();
  }

  private rowsOf(kind: string): Map<string, number[]> {
    let rows = this.byKind.get(kind);
    if (!rows) {
      rows = new Map(COUNTED_CONDITIONS.map((type) => [type, [0, 0, 0]]));
      this.byKind.set(kind, rows);
    }
    return rows;
  }

  private add(rows: Map<string, number[]>, object: Counted, sign: 1 | -1): void {
    const conditions = object?.status?.conditions;
    if (conditions === undefined) return;
    for (let j = 0; j < conditions.length; j++) {
      const c = conditions[j]!;
      const i = CONDITION_STATUSES.indexOf(c.status);
      if (i < 0) continue;
      let row = rows.get(c.type);
      if (!row) {
        row = [0, 0, 0];
        rows.set(c.type, row);
      }
      row[i]! += sign;
    }
  }
}
