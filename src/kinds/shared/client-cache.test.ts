import { describe, expect, it } from "vitest";
import { ClientCache } from "./client-cache.ts";

describe("ClientCache", () => {
  it("concurrent reads of one key share one load; another client loads its own", async () => {
    const cache = new ClientCache<number>();
    let loads = 0;
    const load = () => new Promise<number>((resolve) => setImmediate(() => resolve(++loads)));
    const a = {};
    expect(await Promise.all([cache.get(a, "k", load), cache.get(a, "k", load)])).toEqual([1, 1]);
    expect(await cache.get({}, "k", load)).toBe(2);
  });

  it("peek answers while fresh, then forgets", async () => {
    let now = 0;
    const cache = new ClientCache<string>({ ttlMs: 10, now: () => now });
    const client = {};
    cache.put(client, "k", Promise.resolve("v"));
    expect(await cache.peek(client, "k")).toBe("v");
    now = 11;
    expect(cache.peek(client, "k")).toBeUndefined();
  });
});
