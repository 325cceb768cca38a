import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { ApiClient } from "./client.ts";
import { ApiError } from "./errors.ts";
import { listAll, objectExists } from "./resource.ts";
import { linksSchema } from "./schemas.ts";

const ORIGIN = "https://us-3.svc.test";
const TOKEN = JSON.stringify({ access_token: "a1", expires_in: 7200, token_type: "bearer" });

let agent: MockAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function setup() {
  agent = new MockAgent();
  agent.disableNetConnect();
  const client = new ApiClient({
    endpoint: ORIGIN,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "rt" },
    dispatcher: agent,
    rateLimit: false,
    retry: { maxAttempts: 1 },
    sleep: async () => {},
  });
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: "/api/oauth2/", method: "POST" }).reply(200, TOKEN).persist();
  return { client, pool };
}

describe("objectExists", () => {
  it("is true on 200 whatever the representation", async () => {
    const { client, pool } = setup();
    pool.intercept({ path: "/api/servers/1", method: "GET" }).reply(200, "{}");
    expect(await objectExists(client, "/api/servers/1")).toBe(true);
  });

  it("is false on 422 ResourceNotFound and on 404", async () => {
    const { client, pool } = setup();
    pool
      .intercept({ path: "/api/servers/999999", method: "GET" })
      .reply(422, "ResourceNotFound: Couldn't find Server with ID=999999 ");
    pool.intercept({ path: "/api/users/5", method: "GET" }).reply(404, "");
    expect(await objectExists(client, "/api/servers/999999")).toBe(false);
    expect(await objectExists(client, "/api/users/5")).toBe(false);
  });

  it("throws any other failure (a refused role, another 422)", async () => {
    const { client, pool } = setup();
    pool.intercept({ path: "/api/users/5", method: "GET" }).reply(403, "Permission denied");
    pool.intercept({ path: "/api/users/6", method: "GET" }).reply(422, "ActionNotAllowed: no");
    await expect(objectExists(client, "/api/users/5")).rejects.toBeInstanceOf(ApiError);
    await expect(objectExists(client, "/api/users/6")).rejects.toMatchObject({ kind: "conflict" });
  });
});

describe("listAll with `wanted`", () => {
  const schema = z.looseObject({ name: z.string(), links: linksSchema });
  const item = (name: unknown, href?: string) => ({ name, links: href ? [{ rel: "self", href }] : [] });
  const listing = (items: unknown[]) => {
    const { client, pool } = setup();
    pool.intercept({ path: "/api/things", method: "GET" }).reply(200, JSON.stringify(items)).persist();
    return client;
  };

  it("validates and returns only the wanted items, in the index's order", async () => {
    // Neither the invalid unwanted item nor the one without a self link fails the listing.
    const client = listing([item("a", "/t/1"), item(5, "/t/2"), item("c", "/t/3"), item(6), null]);
    const got = await listAll(client, "/api/things", schema, { wanted: new Set(["/t/3", "/t/1", "/t/9"]) });
    expect(got.map((t) => t.name)).toEqual(["a", "c"]);
  });

  it("a wanted item is still validated, at its place in the listing", async () => {
    const client = listing([item("a", "/t/1"), item(5, "/t/2")]);
    await expect(listAll(client, "/api/things", schema, { wanted: new Set(["/t/2"]) })).rejects.toMatchObject(
      {
        message: expect.stringContaining("unexpected representation at [1].name"),
      },
    );
  });

  it("without it, every item is validated", async () => {
    const client = listing([item("a", "/t/1"), item(5, "/t/2")]);
    await expect(listAll(client, "/api/things", schema)).rejects.toMatchObject({
      message: expect.stringContaining("unexpected representation at [1].name"),
    });
  });
});
