import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "./client.ts";
import { ApiError } from "./errors.ts";
import { objectExists } from "./resource.ts";

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
