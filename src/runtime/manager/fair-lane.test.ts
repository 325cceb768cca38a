import { describe, expect, it } from "vitest";
import { FairLane } from "./fair-lane.ts";

function drain(lane: FairLane): string[] {
  const out: string[] = [];
  for (let key = lane.shift(); key !== undefined; key = lane.shift()) out.push(key);
  return out;
}

describe("FairLane", () => {
  it("serves its flows in turn, one key each, each flow first in first out", () => {
    const lane = new FairLane();
    for (let i = 0; i < 4; i++) lane.push("a", `a${i}`);
    lane.push("b", "b0");
    lane.push("b", "b1");
    lane.push("c", "c0");
    expect(lane.size).toBe(7);
    expect(drain(lane)).toEqual(["a0", "b0", "c0", "a1", "b1", "a2", "a3"]);
    expect(lane.size).toBe(0);
  });

  it("a flow that comes with keys takes the last turn; one that ran dry and comes back does too", () => {
    const lane = new FairLane();
    lane.push("a", "a0");
    lane.push("a", "a1");
    lane.push("b", "b0");
    expect(lane.shift()).toBe("a0");
    expect(lane.shift()).toBe("b0");
    // b ran dry: it left the turns, and is back behind a.
    lane.push("c", "c0");
    lane.push("b", "b1");
    expect(drain(lane)).toEqual(["a1", "c0", "b1"]);
  });

  it("a key put back goes next, as if it had not been taken; several put back, the last first", () => {
    const lane = new FairLane();
    for (const k of ["a0", "a1"]) lane.push("a", k);
    lane.push("b", "b0");
    const first = lane.shift()!;
    const second = lane.shift()!;
    expect([first, second]).toEqual(["a0", "b0"]);
    lane.unshift(second);
    lane.unshift(first);
    expect(lane.size).toBe(3);
    expect(drain(lane)).toEqual(["a0", "b0", "a1"]);
  });

  it("with one flow it is a plain first-in-first-out queue", () => {
    const lane = new FairLane();
    const keys = Array.from({ length: 3000 }, (_, i) => `k${i}`);
    for (const k of keys) lane.push("", k);
    expect(drain(lane)).toEqual(keys);
  });

  it("keeps the order of a model through thousands of keys, its arrays cut as it goes", () => {
    // Many keys through few flows and few keys through many: both of its arrays (a flow's keys,
    // the turns) pass the point where served entries are cut off.
    const lane = new FairLane();
    const model = new Map<string, string[]>();
    const turns: string[] = [];
    const push = (flow: string, key: string) => {
      if (!model.has(flow)) {
        model.set(flow, []);
        turns.push(flow);
      }
      model.get(flow)!.push(key);
      lane.push(flow, key);
    };
    const expected = (): string | undefined => {
      const flow = turns.shift();
      if (flow === undefined) return undefined;
      const keys = model.get(flow)!;
      const key = keys.shift();
      if (keys.length > 0) turns.push(flow);
      else model.delete(flow);
      return key;
    };
    let n = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 2500; i++) push(`f${i % (round % 2 === 0 ? 3 : 900)}`, `k${n++}`);
      const served = Array.from({ length: 2000 }, () => lane.shift());
      expect(served).toEqual(Array.from({ length: 2000 }, expected));
    }
    const rest: string[] = [];
    for (let key = expected(); key !== undefined; key = expected()) rest.push(key);
    expect(drain(lane)).toEqual(rest);
    expect(lane.size).toBe(0);
  });
});
