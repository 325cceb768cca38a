import { afterAll, describe, expect, it } from "vitest";
import { login, oauthClient, SimClient, startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());
const anon = new SimClient(h.url);
const credentials = { email: "admin@example.com", password: "password", account_href: "/api/accounts/1" };

describe("session", () => {
  it("POST /api/session and /api/sessions answer 204 with the two cookies", async () => {
    for (const path of ["/api/session", "/api/sessions", "/api/session.json"]) {
      const res = await anon.post(path, { form: credentials });
      expect(res.status, path).toBe(204);
      expect(res.text).toBe("");
      const cookies = res.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      const session = cookies.find((c) => c.startsWith("_session_id="))!;
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; HttpOnly/);
      const global = cookies.find((c) => !c.startsWith("_session_id="))!;
      expect(global).toMatch(/^svc_global_session=[0-9a-f]+; Path=\/; HttpOnly$/);
    }
  });

  it("accepts JSON login bodies", async () => {
    expect((await anon.post("/api/session", { json: credentials })).status).toBe(204);
  });

  it("refuses bad credentials with 401 and a missing version header with 400", async () => {
    const wrong = await anon.post("/api/session", { form: { ...credentials, password: "nope" } });
    expect([wrong.status, wrong.text]).toEqual([401, "AuthenticationError: invalid email or password"]);
    const unknown = await anon.post("/api/session", { form: { ...credentials, email: "who@example.com" } });
    expect(unknown.status).toBe(401);
    const account = await anon.post("/api/session", {
      form: { ...credentials, account_href: "/api/accounts/9" },
    });
    expect(account.status).toBe(401);
    const noVersion = await anon.post("/api/session", {
      form: credentials,
      headers: { "x-api-version": "" },
    });
    expect([noVersion.status, noVersion.text]).toEqual([
      400,
      "ParameterError: the X-API-Version header is required on this call",
    ]);
    const missing = await anon.post("/api/session", {
      form: { email: "admin@example.com", password: "password" },
    });
    expect([missing.status, missing.text]).toEqual([400, "ParameterError: account_href is required"]);
    const badHref = await anon.post("/api/session", { form: { ...credentials, account_href: "accounts/1" } });
    expect(badHref.status).toBe(400);
  });

  it("a call without credentials or with an unknown cookie is 403 with the wording clients match", async () => {
    for (const client of [anon, new SimClient(h.url, { cookie: "_session_id=deadbeef" })]) {
      const res = await client.get("/api/deployments");
      expect([res.status, res.text]).toEqual([403, "Session cookie is expired or invalid"]);
    }
  });

  it("either cookie authenticates", async () => {
    const res = await anon.post("/api/session", { form: credentials });
    for (const cookie of res.headers.getSetCookie().map((c) => c.split(";")[0]!)) {
      expect((await new SimClient(h.url, { cookie }).get("/api/deployments")).status, cookie).toBe(200);
    }
  });

  it("a session lives 2 hours of non-use on the simulator clock", async () => {
    const active = await login(h.url, credentials.email, credentials.password);
    const idle = await login(h.url, credentials.email, credentials.password);
    await h.hook("clock", { advanceSeconds: 3600 });
    expect((await active.get("/api/deployments")).status).toBe(200);
    await h.hook("clock", { advanceSeconds: 3600 });
    // idle: 2 h without use -> expired; active: used 1 h ago -> alive
    const expired = await idle.get("/api/deployments");
    expect([expired.status, expired.text]).toEqual([403, "Session cookie is expired or invalid"]);
    expect((await active.get("/api/deployments")).status).toBe(200);
    await h.hook("clock", { advanceSeconds: 7199 });
    expect((await active.get("/api/deployments")).status).toBe(200);
    await h.hook("clock", { advanceSeconds: 7200 });
    expect((await active.get("/api/deployments")).status).toBe(403);
  });
});

describe("oauth2", () => {
  it("exchanges the refresh token for a bearer token, JSON with no-cache headers", async () => {
    for (const path of ["/api/oauth2/", "/api/oauth2", "/api/oauth2.json"]) {
      const res = await anon.post(path, {
        form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token" },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("cache-control")).toContain("no-cache");
      expect(res.headers.get("pragma")).toBe("no-cache");
      const body = res.json<Record<string, unknown>>();
      expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
      expect(body).toMatchObject({ expires_in: 7200, token_type: "bearer" });
      const client = new SimClient(h.url, { authorization: `Bearer ${body.access_token}` });
      expect((await client.get("/api/deployments")).status).toBe(200);
    }
  });

  it("an expired or unknown access token is 401", async () => {
    const client = await oauthClient(h.url);
    await h.hook("clock", { advanceSeconds: 7199 });
    expect((await client.get("/api/deployments")).status).toBe(200);
    await h.hook("clock", { advanceSeconds: 1 });
    const expired = await client.get("/api/deployments");
    expect([expired.status, expired.text]).toEqual([401, "AuthenticationError: access token is expired"]);
    const unknown = await new SimClient(h.url, { authorization: "Bearer nope" }).get("/api/deployments");
    expect(unknown.status).toBe(401);
    const malformed = await new SimClient(h.url, { authorization: "Basic abc" }).get("/api/deployments");
    expect(malformed.status).toBe(401);
  });

  const bad: Array<[string, Record<string, string>, Record<string, string>, number, string]> = [
    [
      "a wrong refresh token",
      { grant_type: "refresh_token", refresh_token: "x" },
      {},
      401,
      "AuthenticationError: refresh_token is invalid or OAuth is disabled",
    ],
    [
      "no refresh token",
      { grant_type: "refresh_token" },
      {},
      401,
      "AuthenticationError: refresh_token is invalid or OAuth is disabled",
    ],
    [
      "no grant type",
      { refresh_token: "dev-refresh-token" },
      {},
      400,
      "ParameterError: grant_type is required",
    ],
    [
      "another grant type",
      { grant_type: "password", refresh_token: "dev-refresh-token" },
      {},
      400,
      "ParameterError: grant_type must be one of refresh_token (got 'password')",
    ],
    [
      "no version header",
      { grant_type: "refresh_token", refresh_token: "dev-refresh-token" },
      { "x-api-version": "" },
      400,
      "ParameterError: the X-API-Version header is required on this call",
    ],
    [
      "a bad agent_link_version",
      { grant_type: "refresh_token", refresh_token: "dev-refresh-token", agent_link_version: "1" },
      {},
      400,
      "ParameterError: agent_link_version must be digits and dots like 1.2 or 1.2.3 (got '1')",
    ],
    [
      "a bad r_s_version",
      { grant_type: "refresh_token", refresh_token: "dev-refresh-token", r_s_version: "x" },
      {},
      400,
      "ParameterError: r_s_version must be an Integer (got 'x')",
    ],
    [
      "a bad account_id",
      { grant_type: "refresh_token", refresh_token: "dev-refresh-token", account_id: "a" },
      {},
      400,
      "ParameterError: account_id must be an Integer (got 'a')",
    ],
  ];
  it.each(bad)("refuses %s", async (_reason, form, headers, status, text) => {
    const res = await anon.post("/api/oauth2/", { form, headers });
    expect([res.status, res.text]).toEqual([status, text]);
  });

  it("accepts agent parameters and its own account_id; a foreign account_id is 301", async () => {
    const own = await anon.post("/api/oauth2/", {
      form: {
        grant_type: "refresh_token",
        refresh_token: "dev-refresh-token",
        account_id: "1",
        r_s_version: "24",
        agent_link_version: "1.2.3",
      },
    });
    expect(own.status).toBe(200);
    const foreign = await anon.post("/api/oauth2/", {
      form: { grant_type: "refresh_token", refresh_token: "dev-refresh-token", account_id: "42" },
    });
    expect(foreign.status).toBe(301);
    expect(foreign.headers.get("location")).toBe(`${h.regionUrl}/api/oauth2/`);
  });

  it("the other cluster answers a token request for account 1 with 301 to the account's cluster", async () => {
    const region = new SimClient(h.regionUrl);
    const grant = { grant_type: "refresh_token", refresh_token: "dev-refresh-token", account_id: "1" };
    const moved = await region.post("/api/oauth2/", { form: grant });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${h.url}/api/oauth2/`);
    // No cluster hosts account 42: the other cluster refuses instead of bouncing it back.
    const nowhere = await region.post("/api/oauth2/", { form: { ...grant, account_id: "42" } });
    expect([nowhere.status, nowhere.text]).toEqual([
      422,
      "ResourceNotFound: Couldn't find Account with ID=42",
    ]);
    // Without account_id the token endpoint is just another call to the wrong region: 302.
    const plain = await region.post("/api/oauth2/", { form: { grant_type: "refresh_token" } });
    expect(plain.status).toBe(302);
  });
});

describe("regional redirect", () => {
  it("the wrong-region port answers 302 to the account's host for every method, keeping path and query", async () => {
    const region = new SimClient(h.regionUrl);
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
      const res = await region.request(method, "/api/deployments/1", { query: "view=inputs" });
      expect(res.status, method).toBe(302);
      expect(res.headers.get("location")).toBe(`${h.url}/api/deployments/1?view=inputs`);
    }
    const session = await region.post("/api/session", { form: credentials });
    expect(session.status).toBe(302);
    expect(session.headers.get("location")).toBe(`${h.url}/api/session`);
  });
});

describe("roles", () => {
  it("user 2 logs in but holds no role: 403 naming it", async () => {
    const user2 = await login(h.url, "user2@example.com", "password");
    const res = await user2.get("/api/clouds");
    expect(res.status).toBe(403);
    expect(res.text).toBe(
      "PermissionDenied: this operation requires the observer or instance or infrastructure role (user 2 has none of them)",
    );
  });
});

describe("authentication comes before the body is parsed", () => {
  const bracketForm = (n: number) =>
    Array.from(
      { length: n / 2 },
      (_, i) => `deployment[inputs][][name]=n${i}&deployment[inputs][][value]=v${i}`,
    ).join("&");

  it("an anonymous or role-less caller is refused on its headers, whatever its body", async () => {
    const hostile = [
      { form: bracketForm(100_000) },
      { form: "{", headers: { "content-type": "application/json" } },
      { form: `{"a":${"[".repeat(50_000)}`, headers: { "content-type": "application/json" } },
    ];
    for (const body of hostile) {
      // Parsing first would have answered 400 (too many entries, malformed JSON).
      const res = await anon.post("/api/deployments", body);
      expect([res.status, res.text]).toEqual([403, "Session cookie is expired or invalid"]);
    }
    const user2 = await login(h.url, "user2@example.com", "password");
    const refused = await user2.post("/api/deployments", { form: bracketForm(100_000) });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/^PermissionDenied: /);
  });

  it("an authorised caller's oversized body is a 400 naming the limit", async () => {
    const admin = await login(h.url, credentials.email, credentials.password);
    const res = await h.expectUnchanged(() => admin.post("/api/deployments", { form: bracketForm(16_000) }));
    expect([res.status, res.text]).toEqual([
      400,
      "ParameterError: the form body has more than 10000 entries (the limit)",
    ]);
  });

  it("public calls (session, OAuth) parse their body under the same limits", async () => {
    const res = await anon.post("/api/session", { form: `${bracketForm(100_000)}&email=a` });
    expect(res.status).toBe(400);
    expect(res.text).toContain("more than 10000 entries");
    const region = await new SimClient(h.regionUrl).post("/api/oauth2", { form: bracketForm(100_000) });
    expect(region.status).toBe(400);
    expect(region.text).toContain("more than 10000 entries");
  });
});
