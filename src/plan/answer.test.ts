import { describe, expect, it } from "vitest";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { converge } from "./answer.ts";

type W = { size: number; color: string; state?: string; note?: string };

const widget = (extra: Partial<AnyManagedKind> = {}): AnyManagedKind =>
  ({
    kind: "Widget",
    immutable: ["size"],
    diff: (d: W, o: W) =>
      (["size", "color"] as const)
        .filter((f) => d[f] !== o[f])
        .map((f) => ({ field: f, desired: d[f], observed: o[f] })),
    atProvider: (o: W) => ({ ...o, state: o.state ?? null }),
    notReady: (o: W) => (o.state === "pending" ? "widget is pending" : undefined),
    ...extra,
  }) as unknown as AnyManagedKind;

const base = { kind: "Widget", namespace: "ns", name: "w", source: "x", href: "/api/widgets/1" };
const run = (
  kind: AnyManagedKind,
  d: W,
  o: W,
  options: { observeOnly?: boolean; applied?: Record<string, unknown> } = {},
) => converge(kind, base, d, o, { observeOnly: options.observeOnly ?? false, applied: options.applied });

describe("converge, as plan asks it", () => {
  it.each([
    { reason: "in sync", d: { size: 1, color: "red" }, action: "no change", fields: [] },
    {
      reason: "an updatable field differs",
      d: { size: 1, color: "blue" },
      action: "update",
      fields: ["color"],
    },
    {
      reason: "an immutable field differs",
      d: { size: 2, color: "blue" },
      action: "immutable",
      fields: ["size"],
    },
  ])("$reason: $action", ({ d, action, fields }) => {
    const r = run(widget(), d, { size: 1, color: "red" });
    expect(r.action).toBe(action);
    expect(r.changes.map((c) => c.field)).toEqual(fields);
    expect(r.atProvider).toEqual({ size: 1, color: "red" });
  });

  it("replace, for a kind that replaces, with every differing field and how", () => {
    const r = run(
      widget({ replace: "deleteBeforeCreate" }),
      { size: 2, color: "blue" },
      { size: 1, color: "red" },
    );
    expect(r).toMatchObject({
      action: "replace",
      message: "size cannot be updated in place: this object is deleted, then a new one created",
    });
    expect(r.changes.map((c) => c.field)).toEqual(["size", "color"]);
  });

  it("ObserveOnly never writes: no change, saying what differs", () => {
    const r = run(widget(), { size: 2, color: "blue" }, { size: 1, color: "red" }, { observeOnly: true });
    expect(r).toMatchObject({
      action: "no change",
      changes: [],
      message: "ObserveOnly, never written: the service differs in size, color",
    });
  });

  it("write-only values: compared with what status.applied records; without a record, taken as applied", () => {
    const kind = widget({ writeOnly: (d: W) => ({ note: d.note }) });
    const d = { size: 1, color: "red", note: "b" };
    expect(run(kind, d, { size: 1, color: "red" }).action).toBe("no change");
    const r = run(kind, d, { size: 1, color: "red" }, { applied: { note: "a" } });
    expect(r).toMatchObject({
      action: "update",
      changes: [{ field: "note", desired: "b", observed: "a" }],
      writeOnly: ["note"],
    });
  });

  it("in sync but not ready: no change, saying so", () => {
    expect(
      run(widget(), { size: 1, color: "red" }, { size: 1, color: "red", state: "pending" }).message,
    ).toBe("not ready yet: widget is pending");
  });
});
