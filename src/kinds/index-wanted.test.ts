import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceApi, type ServiceApi } from "../api/index.ts";
import { managedKinds } from "./index.ts";

/**
 * Every kind's index listing takes the hrefs a batched read wants (ManagedKind.index.list): the
 * items it does not want are never validated, the wanted ones are, and without `wanted` every
 * item is. The fake index answers every collection with two items no schema accepts (a link
 * without a string rel), so any validation of one fails the listing.
 */

const ORIGIN = "https://us-3.svc.test";
const invalid = (href: string) => ({ name: "x", links: [{ rel: "self", href }, { rel: 7 }] });

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function service(): ServiceApi {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  pool
    .intercept({ path: "/api/oauth2/", method: "POST" })
    .reply(200, { access_token: "a1", expires_in: 7200, token_type: "bearer" })
    .persist();
  pool
    .intercept({ path: () => true, method: "GET" })
    .reply(200, JSON.stringify([invalid("/x/1"), invalid("/x/2")]))
    .persist();
  const api = createServiceApi({
    endpoint: ORIGIN,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "rt" },
    dispatcher: agent,
    rateLimit: false,
    retry: { maxAttempts: 1 },
  });
  close = async () => {
    await api.close();
    await agent.close();
  };
  return api;
}

const SCOPE = "/api/clouds/1";
const indexed = managedKinds.filter((k) => k.index);

describe("index listings with the hrefs a batched read wants", () => {
  it("covers every kind with an index", () => {
    expect(indexed.map((k) => k.kind)).toEqual(managedKinds.map((k) => k.kind));
  });

  for (const kind of indexed) {
    it(`${kind.kind}: unwanted items are not validated, wanted ones are, a whole listing is`, async () => {
      const api = service();
      expect(await kind.index!.list(api, SCOPE, new Set(["/x/9"]))).toEqual([]);
      await expect(kind.index!.list(api, SCOPE, new Set(["/x/2"]))).rejects.toMatchObject({
        message: expect.stringContaining("unexpected representation at [1]"),
      });
      await expect(kind.index!.list(api, SCOPE)).rejects.toMatchObject({
        message: expect.stringContaining("unexpected representation at [0]"),
      });
    });
  }
});
