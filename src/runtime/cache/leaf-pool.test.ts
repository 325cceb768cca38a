import { describe, expect, it } from "vitest";
import { LeafPool } from "./leaf-pool.ts";

describe("LeafPool", () => {
  it("gives equal lists and objects of strings, numbers, booleans and null one frozen copy", () => {
    const pool = new LeafPool();
    const a = pool.intern(["cloud.svc.io/finalizer"]);
    expect(pool.intern(["cloud.svc.io/finalizer"])).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    const ref = pool.intern({ name: "default", n: 1, on: true, none: null });
    expect(pool.intern({ name: "default", n: 1, on: true, none: null })).toBe(ref);
    expect(pool.intern({})).toBe(pool.intern({}));
    expect(pool.intern([])).toBe(pool.intern([]));
    expect(pool.intern([])).not.toBe(pool.intern({}));
  });

  it("keeps values apart that differ in a member, its type or the order of members", () => {
    const pool = new LeafPool();
    const a = pool.intern({ name: "a", kind: "b" });
    expect(pool.intern({ kind: "b", name: "a" })).not.toBe(a);
    expect(pool.intern({ name: "a", kind: "c" })).not.toBe(a);
    expect(pool.intern(["1"])).not.toBe(pool.intern([1]));
    expect(pool.intern({ "0": "x" })).not.toBe(pool.intern(["x"]));
  });

  it("leaves alone what is no leaf: nested values, too many members, undefined, non-finite numbers, class instances", () => {
    const pool = new LeafPool({ maxMembers: 2 });
    for (const value of [
      { ref: { name: "a" } },
      ["a", "b", "c"],
      { name: undefined },
      [Number.NaN],
      new Date(0),
    ]) {
      expect(pool.intern(value)).toBe(value);
      expect(Object.isFrozen(value)).toBe(false);
    }
    expect(pool.length).toBe(0);
  });

  it("replaces the leaves inside a value at any depth, and passes over frozen parts", () => {
    const pool = new LeafPool();
    const finalizers = pool.intern(["f"]);
    const frozen = Object.freeze([{ type: "Ready" }]);
    const spec = {
      accountRef: { name: "default" },
      nested: { list: ["f"], deep: { name: "default" } },
      frozen,
    };
    pool.internAll(spec);
    expect(spec.nested.list).toBe(finalizers);
    expect(spec.nested.deep).toBe(spec.accountRef);
    expect(Object.isFrozen(spec.nested)).toBe(false);
    expect(Object.isFrozen(frozen[0])).toBe(false);
  });

  it("starts over once it holds its size, the leaves shared so far staying shared", () => {
    const pool = new LeafPool({ size: 2 });
    const a = pool.intern({ name: "a" });
    pool.intern({ name: "b" });
    pool.intern({ name: "c" });
    expect(pool.length).toBe(1);
    expect(Object.isFrozen(a)).toBe(true);
    expect(pool.intern({ name: "a" })).not.toBe(a);
  });
});
