import { describe, expect, it } from "vitest";
import { StringPool } from "./string-pool.ts";

/** A string equal to `s` but not the same heap object (as JSON.parse makes them). */
const copy = (s: string) => JSON.parse(JSON.stringify(s)) as string;

describe("StringPool", () => {
  it("shares equal strings across objects, at any depth, leaving other values alone", () => {
    const pool = new StringPool();
    const a = {
      apiVersion: copy("cloud.svc.io/v1alpha1"),
      status: { conditions: [{ reason: copy("Idle") }] },
      n: 1,
    };
    const b = {
      apiVersion: copy("cloud.svc.io/v1alpha1"),
      status: { conditions: [{ reason: copy("Idle") }] },
      n: 2,
    };
    pool.internAll(a);
    pool.internAll(b);
    expect(b).toEqual({
      apiVersion: "cloud.svc.io/v1alpha1",
      status: { conditions: [{ reason: "Idle" }] },
      n: 2,
    });
    expect(pool.length).toBe(2);
    // Equal strings are === either way: what is shared shows in the pool's size.
    pool.internAll({ tags: [copy("Idle"), copy("x".repeat(100)), null, 3] });
    expect(pool.length).toBe(2);
  });

  it("starts over when full and skips long strings", () => {
    const pool = new StringPool({ size: 2, maxLength: 5 });
    pool.intern("a");
    pool.intern("b");
    expect(pool.length).toBe(2);
    pool.intern("c");
    expect(pool.length).toBe(1);
    pool.intern("longer than five");
    expect(pool.length).toBe(1);
  });

  it("passes over frozen values (shared already, and not writable)", () => {
    const pool = new StringPool();
    const frozen = Object.freeze(["cloud.svc.io/finalizer"]);
    expect(() => pool.internAll({ finalizers: frozen, nested: Object.freeze({ a: "b" }) })).not.toThrow();
    expect(pool.length).toBe(0);
  });
});
