import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map.ts";

describe("BoundedMap", () => {
  it("keeps the most recently used keys: a read counts as a use", () => {
    const map = new BoundedMap<number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([1, undefined, 3]);
  });

  it("forgets a deleted key", () => {
    const map = new BoundedMap<number>(2);
    map.set("a", 1);
    map.delete("a");
    expect(map.get("a")).toBeUndefined();
  });

  it("peek reads without counting as a use; size and clear", () => {
    const map = new BoundedMap<number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.peek("a")).toBe(1);
    map.set("c", 3);
    expect([map.peek("a"), map.size]).toEqual([undefined, 2]);
    map.clear();
    expect(map.size).toBe(0);
  });
});
