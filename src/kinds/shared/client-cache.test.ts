import { describe, expect, it } from "vitest";
import { callsGoAhead } from "../../api/index.ts";
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

  it("a load (which every reader of its key waits on) makes its calls ahead of others", async () => {
    const cache = new ClientCache<boolean>();
    const client = {};
    expect(await cache.get(client, "k", async () => callsGoAhead())).toBe(true);
    expect(callsGoAhead()).toBe(false);
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
