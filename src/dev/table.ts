import type { ManagedObject } from "../runtime/sdk/index.ts";
import { getCondition } from "../runtime/sdk/index.ts";

/** One line of the live table. */
export interface Row {
  kind: string;
  name: string;
  ready: string;
  synced: string;
  reason: string;
  href: string;
}

const HEADERS: Row = {
  kind: "KIND",
  name: "NAME",
  ready: "READY",
  synced: "SYNCED",
  reason: "REASON",
  href: "HREF",
};
const COLUMNS = Object.keys(HEADERS) as (keyof Row)[];

/** A row from an object as the operator last wrote it; "-" where nothing is known yet. */
export function rowOf(kind: string, name: string, obj: ManagedObject | undefined): Row {
  const ready = getCondition(obj?.status?.conditions, "Ready");
  const synced = getCondition(obj?.status?.conditions, "Synced");
  const stalled = getCondition(obj?.status?.conditions, "Stalled");
  const stale =
    obj !== undefined &&
    obj.status?.observedGeneration !== undefined &&
    obj.status.observedGeneration < (obj.metadata.generation ?? 0);
  return {
    kind,
    name,
    ready: obj === undefined ? "absent" : stale ? "Unknown" : (ready?.status ?? "-"),
    synced: synced?.status ?? "-",
    reason: stalled?.status === "True" ? stalled.reason : (ready?.reason ?? "-"),
    href: obj?.status?.href ?? "-",
  };
}

/** The table as lines, columns padded to the widest cell. */
export function renderTable(rows: readonly Row[]): string[] {
  const widths = COLUMNS.map((c) => Math.max(HEADERS[c].length, ...rows.map((r) => r[c].length)));
  const line = (r: Row) =>
    COLUMNS.map((c, i) => (i === COLUMNS.length - 1 ? r[c] : r[c].padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(HEADERS), ...rows.map(line)];
}

/** One plain line per row (non-terminal output): `Kind/name Ready=X Synced=Y reason href`. */
export function plainLine(r: Row): string {
  return `${r.kind}/${r.name} Ready=${r.ready} Synced=${r.synced} reason=${r.reason} href=${r.href}`;
}

/**
 * The live table: on a terminal it is redrawn in place (cursor up, clear lines); otherwise
 * each row is printed as a plain line whenever it changes, so logs and pipes stay readable.
 */
export class LiveTable {
  private readonly write: (text: string) => void;
  private readonly tty: boolean;
  private drawn = 0;
  private lastFrame = "";
  private readonly lastPlain = new Map<string, string>();
  private readonly columns: () => number | undefined;

  /** `columns`: the terminal's width; longer lines are cut, since a wrapped line breaks the cursor-up count. */
  constructor(options: { write: (text: string) => void; tty: boolean; columns?: () => number | undefined }) {
    this.write = options.write;
    this.tty = options.tty;
    this.columns = options.columns ?? (() => undefined);
  }

  /** `footer` (a status line) is part of the frame on a terminal; off a terminal it is not printed. */
  update(rows: readonly Row[], footer?: string): void {
    if (this.tty) {
      const width = this.columns();
      const lines = [...renderTable(rows), ...(footer === undefined ? [] : ["", footer])].map((l) =>
        width && l.length >= width ? l.slice(0, width - 1) : l,
      );
      const frame = lines.join("\n");
      if (frame === this.lastFrame) return;
      this.lastFrame = frame;
      const up = this.drawn > 0 ? `\x1b[${this.drawn}A\r` : "";
      this.write(`${up}${lines.map((l) => `\x1b[2K${l}`).join("\n")}\n\x1b[J`);
      this.drawn = lines.length;
      return;
    }
    for (const r of rows) {
      const key = `${r.kind}/${r.name}`;
      const text = plainLine(r);
      if (this.lastPlain.get(key) === text) continue;
      this.lastPlain.set(key, text);
      this.write(`${text}\n`);
    }
  }

  /** Text printed below the table on a terminal must not be overwritten by the next redraw. */
  release(): void {
    this.drawn = 0;
    this.lastFrame = "";
  }
}
