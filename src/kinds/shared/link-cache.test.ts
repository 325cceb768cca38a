import { describe, expect, it } from "vitest";
import type { Linked } from "../../api/schemas.ts";
import { LinkCache } from "./link-cache.ts";

const table = (id: number, network: number | null): Linked => ({
  links: [
    { rel: "self", href: `/api/route_tables/${id}` },
    ...(network === null ? [] : [{ rel: "network", href: `/api/networks/${network}` }]),
  ],
});

/** A fake service: route tables by href, counting the calls made. */
function service(tables: Linked[]) {
  const calls = { show: 0, list: 0 };
  const byHref = new Map(tables.map((t) => [t.links[0]!.href!, t]));
  return {
    calls,
    show: async (href: string) => {
      calls.show++;
      return byHref.get(href);
    },
    list: async () => {
      calls.list++;
      return tables;
    },
  };
}

describe("LinkCache", () => {
  it("reads one object's link once, then answers from memory", async () => {
    const cache = new LinkCache({ rel: "network" });
    const svc = service([table(1, 5)]);
    const client = {};
    expect(await cache.one(client, "/api/route_tables/1", svc.show)).toBe("/api/networks/5");
    expect(await cache.one(client, "/api/route_tables/1", svc.show)).toBe("/api/networks/5");
    expect(svc.calls).toEqual({ show: 1, list: 0 });
  });

  it("answers a batch with one list call, then no call at all; a single read finds what the list showed", async () => {
    const cache = new LinkCache({ rel: "network" });
    const svc = service([table(1, 5), table(2, 6), table(3, null)]);
    const client = {};
    const hrefs = [
      "/api/route_tables/1",
      "/api/route_tables/2",
      "/api/route_tables/1",
      "/api/route_tables/9",
    ];
    const want = new Map([
      ["/api/route_tables/1", "/api/networks/5"],
      ["/api/route_tables/2", "/api/networks/6"],
      ["/api/route_tables/9", undefined],
    ]);
    expect(await cache.many(client, hrefs, svc.list)).toEqual(want);
    expect(await cache.many(client, hrefs, svc.list)).toEqual(want);
    expect(await cache.one(client, "/api/route_tables/3", svc.show)).toBeUndefined();
    expect(svc.calls).toEqual({ show: 0, list: 1 });
  });

  it("keeps each service client's answers apart (one client per Account)", async () => {
    const cache = new LinkCache({ rel: "network" });
    const a = service([table(1, 5)]);
    const b = service([table(1, 7)]);
    expect(await cache.one({}, "/api/route_tables/1", a.show)).toBe("/api/networks/5");
    expect(await cache.one({}, "/api/route_tables/1", b.show)).toBe("/api/networks/7");
  });

  it("reads again once an answer is older than the TTL, and never keeps a failed read", async () => {
    let now = 0;
    const cache = new LinkCache({ rel: "network", ttlMs: 1_000, now: () => now });
    const svc = service([table(1, 5)]);
    const client = {};
    await cache.one(client, "/api/route_tables/1", svc.show);
    now = 1_001;
    await cache.one(client, "/api/route_tables/1", svc.show);
    expect(svc.calls.show).toBe(2);

    const failing = async () => {
      throw new Error("503");
    };
    await expect(cache.one(client, "/api/route_tables/2", failing)).rejects.toThrow("503");
    expect(await cache.one(client, "/api/route_tables/2", async () => table(2, 8))).toBe("/api/networks/8");
  });

  it("keeps at most maxEntries per client, dropping the oldest", async () => {
    const cache = new LinkCache({ rel: "network", maxEntries: 2 });
    const svc = service([table(1, 5), table(2, 6), table(3, 7)]);
    const client = {};
    for (const id of [1, 2, 3]) await cache.one(client, `/api/route_tables/${id}`, svc.show);
    await cache.one(client, "/api/route_tables/3", svc.show);
    expect(svc.calls.show).toBe(3);
    await cache.one(client, "/api/route_tables/1", svc.show);
    expect(svc.calls.show).toBe(4);
  });
});
