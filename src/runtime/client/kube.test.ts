import { describe, expect, it } from "vitest";
import { deepEqual } from "../sdk/index.ts";
import { mergePatch } from "./kube.ts";

describe("mergePatch", () => {
  it("is undefined when nothing changes", () => {
    expect(mergePatch({ a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } })).toBeUndefined();
  });
  it("nulls removed keys, recurses into objects, replaces arrays", () => {
    expect(mergePatch({ a: 1, at: { x: 1, y: 2 }, l: [1, 2] }, { at: { x: 1, z: 3 }, l: [1] })).toEqual({
      a: null,
      at: { y: null, z: 3 },
      l: [1],
    });
  });
  it("deepEqual is true for equal JSON values, keys in any order", () => {
    expect(deepEqual({ a: 1, b: [1, "x", { c: null }] }, { b: [1, "x", { c: null }], a: 1 })).toBe(true);
    expect(deepEqual([], [])).toBe(true);
    expect(deepEqual("s", "s")).toBe(true);
    expect(deepEqual(null, null)).toBe(true);
  });

  it("deepEqual is false for values that differ anywhere", () => {
    expect(deepEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 1 })).toBe(false);
    expect(deepEqual({ a: 1, b: 1 }, { a: 1 })).toBe(false);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
    expect(deepEqual({ 0: 1 }, [1])).toBe(false);
    expect(deepEqual({ a: { b: [1] } }, { a: { b: [1, 2] } })).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual(1, "1")).toBe(false);
    expect(deepEqual(undefined, null)).toBe(false);
  });

  it("deepEqual ignores undefined members", () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual([1, { a: 2 }], [1, { a: 3 }])).toBe(false);
  });
});
