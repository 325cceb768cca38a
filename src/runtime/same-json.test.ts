import { describe, expect, it } from "vitest";
import { sameJson } from "./same-json.ts";

describe("sameJson", () => {
  it("is true for equal JSON values, keys in any order", () => {
    expect(sameJson({ a: 1, b: [1, "x", { c: null }] }, { b: [1, "x", { c: null }], a: 1 })).toBe(true);
    expect(sameJson([], [])).toBe(true);
    expect(sameJson("s", "s")).toBe(true);
    expect(sameJson(null, null)).toBe(true);
  });

  it("is false for values that differ anywhere", () => {
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: 1 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson({ a: { b: [1] } }, { a: { b: [1, 2] } })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson(1, "1")).toBe(false);
    expect(sameJson(undefined, null)).toBe(false);
  });
});
