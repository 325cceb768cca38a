import { describe, expect, it } from "vitest";
import { allowedConflicts, LAST_APPLIED, syncLastApplied } from "./last-applied.ts";
import type { Obj } from "./meta.ts";

const recorded = JSON.stringify({
  apiVersion: "g/v1",
  kind: "W",
  metadata: { name: "w" },
  spec: { a: 1, b: 2 },
});
const live: Obj = {
  metadata: { name: "w", annotations: { [LAST_APPLIED]: recorded } },
  spec: { a: 1, b: 3 },
};

describe("allowedConflicts", () => {
  it("lists the recorded fields whose live value is unchanged, for the kubectl manager only", () => {
    const allowed = allowedConflicts("kubectl", live, "g/v1", {});
    expect(allowed?.paths()).toEqual([["f:spec", "f:a"]]);
    expect(allowedConflicts("other", live, "g/v1", {})).toBeUndefined();
    expect(allowedConflicts("kubectl", live, "g/v2", {})).toBeUndefined();
    expect(
      allowedConflicts("kubectl", { metadata: { annotations: { [LAST_APPLIED]: "{" } } }, "g/v1", {}),
    ).toBeUndefined();
  });
});

describe("syncLastApplied", () => {
  const applied: Obj = {
    kind: "W",
    apiVersion: "g/v1",
    metadata: { name: "w", annotations: { [LAST_APPLIED]: "x", z: "1" } },
    spec: { b: 2, a: 1 },
  };

  it("records the applied configuration, keys sorted as Go writes them, without the annotation", () => {
    const merged: Obj = { metadata: { annotations: { [LAST_APPLIED]: "old" } } };
    syncLastApplied("kubectl", merged, applied);
    expect((merged.metadata as Obj).annotations).toEqual({
      [LAST_APPLIED]:
        '{"apiVersion":"g/v1","kind":"W","metadata":{"annotations":{"z":"1"},"name":"w"},"spec":{"a":1,"b":2}}',
    });
  });

  it("leaves objects without the annotation, other managers, and oversized annotations alone or without it", () => {
    const none: Obj = { metadata: {} };
    syncLastApplied("kubectl", none, applied);
    expect(none).toEqual({ metadata: {} });
    const other: Obj = { metadata: { annotations: { [LAST_APPLIED]: "old" } } };
    syncLastApplied("other", other, applied);
    expect((other.metadata as Obj).annotations).toEqual({ [LAST_APPLIED]: "old" });
    const big: Obj = { metadata: { annotations: { [LAST_APPLIED]: "old" } } };
    syncLastApplied("kubectl", big, { ...applied, spec: { blob: "x".repeat(300 * 1024) } });
    expect((big.metadata as Obj).annotations).toEqual({});
  });
});
