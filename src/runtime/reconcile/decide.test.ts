import { describe, expect, it } from "vitest";
import type { AnyManagedKind, ManagedObject } from "../sdk/index.ts";
import { DependencyNotReadyError, type TerminalError } from "../sdk/index.ts";
import { decideChange, looksUp, resolveReferences, writeOnlyChanges } from "./decide.ts";

const kind = (extra: Partial<AnyManagedKind> = {}) =>
  ({ kind: "Widget", immutable: ["size"], ...extra }) as AnyManagedKind;
const d = (field: string, desired: unknown, observed: unknown) => ({ field, desired, observed });

describe("decideChange", () => {
  it.each([
    { reason: "nothing differs", diff: [], kind: kind(), type: "none" },
    { reason: "an updatable field differs", diff: [d("color", "red", "blue")], kind: kind(), type: "update" },
    {
      reason: "an immutable field of a kind that replaces",
      diff: [d("size", 2, 1)],
      kind: kind({ replace: "createBeforeDelete" }),
      type: "replace",
    },
    {
      reason: "an immutable field of a kind that cannot replace",
      diff: [d("size", 2, 1), d("color", "red", "blue")],
      kind: kind(),
      type: "immutable",
    },
  ])("$reason: $type", ({ diff, kind: k, type }) => {
    expect(decideChange(k, diff).type).toBe(type);
  });

  it("refuses an immutable change naming only the locked fields and the service's values", () => {
    const change = decideChange(kind(), [d("size", 2, 1), d("color", "red", "blue")]);
    expect(change).toMatchObject({ type: "immutable", locked: [d("size", 2, 1)] });
    const error = (change as { error: TerminalError }).error;
    expect(error.reason).toBe("ImmutableField");
    expect(error.message).toBe(
      "spec.size cannot be changed on an existing Widget (service has 1); create a new Widget instead",
    );
  });
});

describe("writeOnlyChanges", () => {
  it("is undefined without a record (the spec is taken as applied), else the fields that differ", () => {
    expect(writeOnlyChanges({ a: 1 }, undefined)).toBeUndefined();
    expect(writeOnlyChanges({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual([
      d("b", 2, 3),
      d("c", undefined, 4),
    ]);
  });
});

describe("looksUp", () => {
  it("looks up after a pending create, or always for a kind that adopts", () => {
    expect(looksUp(kind(), false)).toBe(false);
    expect(looksUp(kind(), true)).toBe(true);
    expect(looksUp(kind({ adoptExisting: true }), false)).toBe(true);
  });
});

describe("resolveReferences", () => {
  const ready = (href: string): ManagedObject => ({
    metadata: { name: "n", namespace: "ns" },
    status: {
      href,
      atProvider: { x: 1 },
      conditions: [
        { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
      ],
    },
  });

  it("resolves Ready targets to their href and atProvider", () => {
    const store = { get: () => ready("/api/networks/1") };
    expect(resolveReferences(store, "ns", [{ field: "networkRef", kind: "Network", name: "n" }])).toEqual({
      refs: { networkRef: { kind: "Network", name: "n", href: "/api/networks/1", atProvider: { x: 1 } } },
      associations: [],
    });
  });

  it("leaves out an after-create association that is not usable yet, saying why, instead of waiting", () => {
    const store = { get: () => undefined };
    const refs = [{ field: "defaultRouteTableRef", kind: "RouteTable", name: "t", afterCreate: true }];
    expect(resolveReferences(store, "ns", refs)).toEqual({
      refs: {},
      associations: ["spec.defaultRouteTableRef: RouteTable t (not found)"],
    });
  });

  it("waits (DependencyNotReady) naming each reference that is not usable", () => {
    const store = { get: () => undefined };
    const refs = [{ field: "networkRef", kind: "Network", name: "n" }];
    expect(() => resolveReferences(store, "ns", refs)).toThrow(DependencyNotReadyError);
    expect(() => resolveReferences(store, "ns", refs)).toThrow(
      "waiting for spec.networkRef: Network n (not found)",
    );
  });
});
