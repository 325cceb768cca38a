// The calls a client has in flight are capped by its connections per service host, however
// many callers wait (the operator's --api-connections): the service sees no more at once. A call
// many wait on (aheadOfOthers) takes the next free one before the calls queued ahead of it.
import { afterAll, describe, expect, it } from "vitest";
import { aheadOfOthers, createServiceApi } from "../../src/api/index.ts";
import { SEED_CREDENTIALS } from "../../src/simulator/seed-data.ts";
import { startSimulator } from "../simulator/harness.ts";
import { authFor } from "./helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

/** A client of the simulator with `connectionsPerHost` connections and no rate limit. */
const clientWith = (connectionsPerHost: number) =>
  createServiceApi({
    endpoint: h.url,
    accountId: SEED_CREDENTIALS.accountId,
    auth: authFor("oauth"),
    rateLimit: false,
    transport: { connectionsPerHost },
  });

describe("connections per host", () => {
  it("keeps at most that many calls in progress at the service", async () => {
    const api = clientWith(3);
    try {
      await api.clouds.index(); // the token, before the clock
      await h.hook("reset");
      await h.hook("faults", { latencyMs: 25 });
      await Promise.all(Array.from({ length: 12 }, () => api.deployments.show("/api/deployments/1")));
      const stats = (await h.hooks.get("/__sim/stats")).json<{ peakInFlight: number; total: number }>();
      expect(stats.total).toBe(12);
      expect(stats.peakInFlight).toBe(3);
    } finally {
      await h.hook("faults", {});
      await api.client.close();
    }
  });

  it("gives the next free connection to a call made in aheadOfOthers, over the real wire", async () => {
    const api = clientWith(1);
    try {
      await api.clouds.index(); // the token, before the line forms
      await h.hook("faults", { latencyMs: 25 });
      const queued = [1, 2, 3, 4].map((i) => api.deployments.create({ name: `gate-queued-${i}` }));
      const ahead = aheadOfOthers(() => api.deployments.create({ name: "gate-ahead" }));
      const hrefs = await Promise.all([...queued, ahead]);
      const arrived = (await h.hooks.get("/__sim/creates")).json<{ href: string }[]>().map((c) => c.href);
      // The first create was on the wire when the others came; the one ahead of others went next.
      expect(arrived.slice(-5)).toEqual([hrefs[0], hrefs[4], hrefs[1], hrefs[2], hrefs[3]]);
    } finally {
      await h.hook("faults", {});
      await api.client.close();
    }
  });
});
