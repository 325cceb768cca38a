import { describe, expect, it } from "vitest";
import type { Obj } from "./meta.ts";
import { type ContentTotals, namespaceConditions } from "./namespace-deletion.ts";

const T0 = "2026-01-01T00:00:00Z";
const T1 = "2026-01-01T00:00:05Z";

function totals(partial: Partial<ContentTotals> = {}): ContentTotals {
  return { remaining: new Map(), finalizers: new Map(), errors: [], ...partial };
}

const ok = (type: string, reason: string, message: string, at = T0) => ({
  type,
  status: "False",
  lastTransitionTime: at,
  reason,
  message,
});

const ALL_OK = [
  ok("NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"),
  ok(
    "NamespaceDeletionGroupVersionParsingFailure",
    "ParsedGroupVersions",
    "All legacy kube types successfully parsed",
  ),
  ok(
    "NamespaceDeletionContentFailure",
    "ContentDeleted",
    "All content successfully deleted, may be waiting on finalization",
  ),
  ok("NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"),
  ok("NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"),
];

describe("namespaceConditions (the namespace controller's status conditions)", () => {
  it("content held by finalizers: what remains per resource and per finalizer, sorted, in kube's words", () => {
    const conditions = namespaceConditions(
      [],
      totals({
        remaining: new Map([
          ["networks.cloud.svc.io", 1],
          ["accounts.cloud.svc.io", 1],
          ["secrets.", 0],
        ]),
        finalizers: new Map([["cloud.svc.io/finalizer", 2]]),
      }),
      T0,
    );
    expect(conditions).toEqual([
      ALL_OK[0],
      ALL_OK[1],
      ALL_OK[2],
      {
        type: "NamespaceContentRemaining",
        status: "True",
        lastTransitionTime: T0,
        reason: "SomeResourcesRemain",
        message:
          "Some resources are remaining: accounts.cloud.svc.io has 1 resource instances, networks.cloud.svc.io has 1 resource instances",
      },
      {
        type: "NamespaceFinalizersRemaining",
        status: "True",
        lastTransitionTime: T0,
        reason: "SomeFinalizersRemain",
        message:
          "Some content in the namespace has finalizers remaining: cloud.svc.io/finalizer in 2 resource instances",
      },
    ]);
  });

  it("failed deletions are reported together", () => {
    const conditions = namespaceConditions([], totals({ errors: ["b failed", "a failed"] }), T0);
    expect(conditions?.[2]).toEqual({
      type: "NamespaceDeletionContentFailure",
      status: "True",
      lastTransitionTime: T0,
      reason: "ContentDeletionFailed",
      message: "Failed to delete all resource types, 2 remaining: a failed, b failed",
    });
  });

  it("nothing changes: undefined (no write); a flip moves lastTransitionTime, a new message does not", () => {
    expect(namespaceConditions(ALL_OK as Obj[], totals(), T1)).toBeUndefined();
    const held = namespaceConditions(
      ALL_OK as Obj[],
      totals({ remaining: new Map([["widgets.example.com", 2]]), finalizers: new Map([["x.io/hold", 2]]) }),
      T1,
    )!;
    expect(held[3]).toMatchObject({ status: "True", lastTransitionTime: T1 });
    const fewer = namespaceConditions(
      held,
      totals({ remaining: new Map([["widgets.example.com", 1]]), finalizers: new Map([["x.io/hold", 1]]) }),
      "2026-01-01T00:00:09Z",
    )!;
    expect(fewer[3]).toMatchObject({
      lastTransitionTime: T1,
      message: "Some resources are remaining: widgets.example.com has 1 resource instances",
    });
    expect(namespaceConditions(fewer, totals(), "2026-01-01T00:00:10Z")![4]).toEqual(
      ok(
        "NamespaceFinalizersRemaining",
        "ContentHasNoFinalizers",
        "All content-preserving finalizers finished",
        "2026-01-01T00:00:10Z",
      ),
    );
  });

  it("keeps conditions of other types", () => {
    const other = { type: "Example", status: "True", lastTransitionTime: T0, reason: "X", message: "" };
    expect(namespaceConditions([other], totals(), T0)?.[0]).toEqual(other);
  });
});
