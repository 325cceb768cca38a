import { describe, expect, it } from "vitest";
import { deepCopy } from "./types.ts";

describe("deepCopy", () => {
  it("copies JSON deeply: changing the copy leaves the original alone", () => {
    const original = { a: [1, { b: "x" }], c: { d: null, e: true }, f: 1.5 };
    const copy = deepCopy(original);
    expect(copy).toEqual(original);
    (copy.a[1] as { b: string }).b = "y";
    copy.c.e = false;
    expect(original).toEqual({ a: [1, { b: "x" }], c: { d: null, e: true }, f: 1.5 });
  });

  it('keeps a parsed "__proto__" key as an own key and never changes the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "spec": {}}') as Record<string, unknown>;
    const copy = deepCopy(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });

  it("copies what is not plain JSON with structuredClone (a Date stays a Date)", () => {
    const when = new Date("2026-01-01T00:00:00Z");
    const copy = deepCopy({ when });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(deepCopy(undefined)).toBeUndefined();
  });
});
