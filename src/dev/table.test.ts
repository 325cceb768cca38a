import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { LiveTable, plainLine, renderTable, rowOf } from "./table.ts";

const obj = (
  generation: number,
  observed: number,
  conditions: { type: string; status: string; reason: string }[],
  href?: string,
) =>
  ({
    metadata: { name: "web", namespace: "demo", generation },
    status: {
      observedGeneration: observed,
      href,
      conditions: conditions.map((c) => ({ ...c, message: "", lastTransitionTime: "2026-01-01T00:00:00Z" })),
    },
  }) as unknown as ManagedObject;

describe("rowOf", () => {
  it.each([
    { reason: "not created yet", o: undefined, ready: "absent", cause: "-", href: "-" },
    {
      reason: "ready",
      o: obj(
        1,
        1,
        [
          { type: "Ready", status: "True", reason: "Available" },
          { type: "Synced", status: "True", reason: "ReconcileSuccess" },
        ],
        "/api/deployments/3",
      ),
      ready: "True",
      cause: "Available",
      href: "/api/deployments/3",
    },
    {
      reason: "stalled shows the Stalled reason",
      o: obj(2, 2, [
        { type: "Ready", status: "False", reason: "InvalidSpec" },
        { type: "Stalled", status: "True", reason: "ImmutableField" },
      ]),
      ready: "False",
      cause: "ImmutableField",
      href: "-",
    },
    {
      reason: "a spec the operator has not seen yet is Unknown, not the old Ready",
      o: obj(3, 2, [{ type: "Ready", status: "True", reason: "Available" }]),
      ready: "Unknown",
      cause: "Available",
      href: "-",
    },
  ])("$reason", ({ o, ready, cause, href }) => {
    const r = rowOf("Deployment", "web", o);
    expect(r).toMatchObject({ kind: "Deployment", name: "web", ready, reason: cause, href });
  });
});

describe("renderTable / plainLine", () => {
  const rows = [
    {
      kind: "Deployment",
      name: "web",
      ready: "True",
      synced: "True",
      reason: "Available",
      href: "/api/deployments/3",
    },
    {
      kind: "RecurringVolumeAttachment",
      name: "data-on-app-1",
      ready: "False",
      synced: "False",
      reason: "DependencyNotReady",
      href: "-",
    },
  ];
  it("pads columns to the widest cell", () => {
    const lines = renderTable(rows);
    expect(lines[0]).toMatch(/^KIND {23}NAME {11}READY {2}SYNCED {2}REASON {14}HREF$/);
    expect(lines[1]!.indexOf("web")).toBe(lines[0]!.indexOf("NAME"));
    expect(lines[2]!.indexOf("DependencyNotReady")).toBe(lines[0]!.indexOf("REASON"));
  });
  it("plain lines carry every column", () => {
    expect(plainLine(rows[0]!)).toBe(
      "Deployment/web Ready=True Synced=True reason=Available href=/api/deployments/3",
    );
  });
});

describe("LiveTable", () => {
  const row = (ready: string) => ({
    kind: "Deployment",
    name: "web",
    ready,
    synced: "True",
    reason: "Available",
    href: "-",
  });

  it("off a terminal prints a row only when it changes", () => {
    const out: string[] = [];
    const t = new LiveTable({ write: (s) => out.push(s), tty: false });
    t.update([row("False")]);
    t.update([row("False")]);
    t.update([row("True")]);
    expect(out).toEqual([
      "Deployment/web Ready=False Synced=True reason=Available href=-\n",
      "Deployment/web Ready=True Synced=True reason=Available href=-\n",
    ]);
  });

  it("on a terminal redraws in place: cursor up over the previous frame, lines cleared", () => {
    const out: string[] = [];
    const t = new LiveTable({ write: (s) => out.push(s), tty: true });
    t.update([row("False")]);
    t.update([row("False")]);
    t.update([row("True")]);
    expect(out).toHaveLength(2);
    expect(out[0]!.startsWith("\x1b[2KKIND")).toBe(true);
    expect(out[1]!.startsWith("\x1b[2A\r\x1b[2KKIND")).toBe(true);
    expect(out[1]).toContain("True ");
  });

  it("on a terminal cuts lines to its width (a wrapped line would break the redraw)", () => {
    const out: string[] = [];
    const t = new LiveTable({ write: (s) => out.push(s), tty: true, columns: () => 20 });
    t.update([row("True")], "a status line that is longer than twenty");
    for (const line of out[0]!.split("\n")) expect(stripVTControlCharacters(line).length).toBeLessThan(20);
  });
});
