import { describe, expect, it } from "vitest";
import type { Condition } from "../sdk/index.ts";
import { ConditionPool } from "./condition-pool.ts";

const ready = (time: string): Condition => ({
  type: "Ready",
  status: "True",
  reason: "Available",
  message: "",
  lastTransitionTime: time,
});
const synced = (time: string): Condition => ({
  type: "Synced",
  status: "True",
  reason: "ReconcileSuccess",
  message: "",
  lastTransitionTime: time,
});

describe("ConditionPool", () => {
  it("gives equal lists one frozen copy, and equal conditions in other lists the same object", () => {
    const pool = new ConditionPool();
    const t = "2026-11-25T16:00:18Z";
    const a = pool.intern([ready(t), synced(t)]) as Condition[];
    const b = pool.intern([ready(t), synced(t)]) as Condition[];
    expect(b).toBe(a);
    expect(a).toEqual([ready(t), synced(t)]);
    expect(Object.isFrozen(a) && Object.isFrozen(a[0])).toBe(true);
    const c = pool.intern([ready(t)]) as Condition[];
    expect(c).not.toBe(a);
    expect(c[0]).toBe(a[0]);
  });

  it("keeps conditions apart that differ in any field, order of fields included", () => {
    const pool = new ConditionPool();
    const t = "2026-11-25T16:00:18Z";
    const a = pool.intern([ready(t)]) as Condition[];
    expect((pool.intern([ready("2026-11-25T16:00:19Z")]) as Condition[])[0]).not.toBe(a[0]);
    expect((pool.intern([{ ...ready(t), observedGeneration: 2 }]) as Condition[])[0]).not.toBe(a[0]);
    const reordered = {
      status: "True",
      type: "Ready",
      reason: "Available",
      message: "",
      lastTransitionTime: t,
    };
    const r = pool.intern([reordered]) as Condition[];
    expect(r[0]).not.toBe(a[0]);
    expect(r[0]).toEqual(reordered);
    // A message holding what looks like another field is its own condition.
    const tricky = { ...ready(t), message: '","lastTransitionTime":"x' };
    expect((pool.intern([tricky]) as Condition[])[0]).toEqual(tricky);
  });

  it("leaves a list alone that holds anything but plain conditions", () => {
    const pool = new ConditionPool();
    const odd = [{ ...ready("t"), extra: 1 }];
    expect(pool.intern(odd)).toBe(odd);
    const typed = [{ ...ready("t"), status: true }];
    expect(pool.intern(typed)).toBe(typed);
    expect(pool.intern("not a list")).toBe("not a list");
    expect(Object.isFrozen(odd)).toBe(false);
  });

  it("starts over once it holds `size` lists; lists shared before stay as they were", () => {
    const pool = new ConditionPool({ size: 2 });
    const first = pool.intern([ready("1")]);
    pool.intern([ready("2")]);
    expect(pool.length).toBe(4);
    pool.intern([ready("3")]);
    expect(pool.length).toBe(2);
    expect(pool.intern([ready("1")])).not.toBe(first);
    expect(pool.intern([ready("1")])).toEqual(first);
  });
});
