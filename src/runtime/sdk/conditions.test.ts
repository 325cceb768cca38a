import { describe, expect, it } from "vitest";
import { type Condition, conditionTime, kstatus, sameConditions, setCondition } from "./conditions.ts";

const t0 = new Date("2026-01-01T00:00:00Z");
const t1 = new Date("2026-01-01T00:05:00Z");

describe("setCondition", () => {
  it("stamps a new condition with now and the generation", () => {
    const c = setCondition([], { type: "Ready", status: "False", reason: "Creating", message: "m" }, 3, t0);
    expect(c).toEqual([
      {
        type: "Ready",
        status: "False",
        reason: "Creating",
        message: "m",
        lastTransitionTime: "2026-01-01T00:00:00Z",
        observedGeneration: 3,
      },
    ]);
  });

  it("keeps lastTransitionTime when only reason or message change", () => {
    const a = setCondition([], { type: "Ready", status: "False", reason: "Creating", message: "m" }, 1, t0);
    const b = setCondition(
      a,
      { type: "Ready", status: "False", reason: "ApiError", message: "other" },
      2,
      t1,
    );
    expect(b[0]?.lastTransitionTime).toBe("2026-01-01T00:00:00Z");
    expect(b[0]?.reason).toBe("ApiError");
    expect(b[0]?.observedGeneration).toBe(2);
  });

  it("moves lastTransitionTime when the status flips", () => {
    const a = setCondition([], { type: "Ready", status: "False", reason: "Creating", message: "" }, 1, t0);
    const b = setCondition(a, { type: "Ready", status: "True", reason: "Available", message: "" }, 1, t1);
    expect(b[0]?.lastTransitionTime).toBe("2026-01-01T00:05:00Z");
  });

  it("writes times as Kubernetes writes metav1.Time: RFC 3339 in whole seconds", () => {
    expect(conditionTime(new Date("2026-01-01T00:05:00.987Z"))).toBe("2026-01-01T00:05:00Z");
    const c = setCondition([], { type: "Ready", status: "True", reason: "x", message: "" }, 1, new Date(999));
    expect(c[0]?.lastTransitionTime).toBe("1970-01-01T00:00:00Z");
  });

  it("orders Ready, Synced, Reconciling, Stalled", () => {
    let c: Condition[] = [];
    for (const type of ["Stalled", "Synced", "Ready", "Reconciling"]) {
      c = setCondition(c, { type, status: "False", reason: "x", message: "" }, 1, t0);
    }
    expect(c.map((x) => x.type)).toEqual(["Ready", "Synced", "Reconciling", "Stalled"]);
  });

  it("sameConditions ignores order and sees any change", () => {
    const a = setCondition([], { type: "Ready", status: "True", reason: "Available", message: "" }, 1, t0);
    const b = setCondition(
      a,
      { type: "Synced", status: "True", reason: "ReconcileSuccess", message: "" },
      1,
      t0,
    );
    expect(sameConditions(b, [...b].reverse())).toBe(true);
    expect(sameConditions(a, b)).toBe(false);
    const c = setCondition(
      b,
      { type: "Synced", status: "True", reason: "ReconcileSuccess", message: "x" },
      1,
      t0,
    );
    expect(sameConditions(b, c)).toBe(false);
  });
});

function cond(type: string, status: "True" | "False", reason = "r"): Condition {
  return { type, status, reason, message: "", lastTransitionTime: t0.toISOString(), observedGeneration: 1 };
}

describe("kstatus over a resource's life", () => {
  const cases: { reason: string; object: Parameters<typeof kstatus>[0]; want: ReturnType<typeof kstatus> }[] =
    [
      { reason: "new: no status yet", object: { metadata: { generation: 1 } }, want: "InProgress" },
      {
        reason: "progressing: Reconciling=True while creating",
        object: {
          metadata: { generation: 1 },
          status: {
            observedGeneration: 1,
            conditions: [
              cond("Ready", "False", "Creating"),
              cond("Reconciling", "True"),
              cond("Stalled", "False"),
            ],
          },
        },
        want: "InProgress",
      },
      {
        reason: "ready",
        object: {
          metadata: { generation: 1 },
          status: {
            observedGeneration: 1,
            conditions: [
              cond("Ready", "True"),
              cond("Synced", "True"),
              cond("Reconciling", "False"),
              cond("Stalled", "False"),
            ],
          },
        },
        want: "Current",
      },
      {
        reason: "spec changed, not yet observed: observedGeneration behind",
        object: {
          metadata: { generation: 2 },
          status: {
            observedGeneration: 1,
            conditions: [cond("Ready", "True"), cond("Reconciling", "False")],
          },
        },
        want: "InProgress",
      },
      {
        reason: "stalled: invalid spec",
        object: {
          metadata: { generation: 2 },
          status: {
            observedGeneration: 2,
            conditions: [
              cond("Ready", "False", "InvalidSpec"),
              cond("Reconciling", "False"),
              cond("Stalled", "True"),
            ],
          },
        },
        want: "Failed",
      },
      {
        reason: "deleting",
        object: {
          metadata: { generation: 2, deletionTimestamp: "2026-01-01T00:00:00Z" },
          status: { observedGeneration: 2, conditions: [cond("Ready", "False", "Deleting")] },
        },
        want: "Terminating",
      },
    ];
  it.each(cases)("$reason -> $want", ({ object, want }) => {
    expect(kstatus(object)).toBe(want);
  });
});
