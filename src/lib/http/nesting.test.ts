import { describe, expect, it } from "vitest";
import { nestingDepth } from "./nesting.ts";

describe("nestingDepth", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(nestingDepth('{"a": [1, {"b": "[[[{{{"}]}', 100)).toBe(3);
    expect(nestingDepth('{"a": "\\"[[["}', 100)).toBe(1);
    expect(nestingDepth("plain: yaml", 100)).toBe(0);
    expect(nestingDepth("spec: {a: [1, [2]]}", 100)).toBe(3);
  });

  it("stops once past the limit, however deep the text goes", () => {
    expect(nestingDepth("[".repeat(1_000_000), 1_000)).toBe(1_001);
  });
});
