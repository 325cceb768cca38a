import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type CallCounter, ReadOnlyError, readOnlyServiceApi } from "./read-only-client.ts";

const ORIGIN = "https://us-3.svc.test";
const TOKEN = JSON.stringify({ access_token: "a1", expires_in: 7200, token_type: "bearer" });
const network = (id: number) => ({
  name: `n${id}`,
  is_default: false,
  links: [{ rel: "self", href: `/api/networks/${id}` }],
});

let agent: MockAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function setup() {
  agent = new MockAgent();
  agent.disableNetConnect();
  const counter: CallCounter = { calls: 0 };
  const api = readOnlyServiceApi(
    {
      endpoint: ORIGIN,
      accountId: 1,
      auth: { type: "oauth", refreshToken: "rt" },
      dispatcher: agent,
      rateLimit: false,
      retry: { maxAttempts: 1 },
    },
    counter,
  );
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: "/api/oauth2/", method: "POST" }).reply(200, TOKEN).persist();
  return { api, pool, counter };
}

describe("the read-only service client", () => {
  it("refuses every write before sending it (nothing is intercepted: a sent request would fail differently)", async () => {
    const { api, counter } = setup();
    await expect(api.networks.update("/api/networks/1", { description: "x" })).rejects.toThrow(ReadOnlyError);
    await expect(api.networks.destroy("/api/networks/1")).rejects.toThrow(
      "refused DELETE /api/networks/1: this command never writes to the service",
    );
    await expect(api.deployments.create({ name: "x" })).rejects.toBeInstanceOf(ReadOnlyError);
    expect(counter.calls).toBe(0);
  });

  it("asks each GET once per run, and counts the calls the service answers", async () => {
    const { api, pool, counter } = setup();
    pool.intercept({ path: "/api/networks/1", method: "GET" }).reply(200, JSON.stringify(network(1)));
    const a = await api.networks.show("/api/networks/1");
    const b = await api.networks.show("/api/networks/1");
    expect(b).toEqual(a);
    expect(counter.calls).toBe(2); // the token, and one show
  });

  it("takes an index answer as the show answer of each object it lists", async () => {
    const { api, pool, counter } = setup();
    pool
      .intercept({ path: "/api/networks", method: "GET" })
      .reply(200, JSON.stringify([network(1), network(2)]));
    expect(await api.networks.index()).toHaveLength(2);
    expect((await api.networks.show("/api/networks/2")).name).toBe("n2");
    expect(counter.calls).toBe(2);
  });
});
