import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { EndpointAllowlist } from "./allowlist.ts";
import { ApiClient, type ApiClientOptions, type CallEvent } from "./client.ts";
import { ApiError } from "./errors.ts";
import { TokenBucket } from "./rate-limiter.ts";

/**
 * The pipeline's decisions against undici's MockAgent (the dispatcher is injected):
 * no sockets, no real waiting (sleep is recorded). Behaviour against the real
 * simulator is covered in test/api/.
 */
const ORIGIN = "https://us-3.svc.test";
const TOKEN = JSON.stringify({ access_token: "a1", expires_in: 7200, token_type: "bearer" });

let agent: MockAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function setup(overrides: Partial<ApiClientOptions> = {}) {
  agent = new MockAgent();
  agent.disableNetConnect();
  const sleeps: number[] = [];
  const events: CallEvent[] = [];
  const client = new ApiClient({
    endpoint: ORIGIN,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "rt" },
    dispatcher: agent,
    rateLimit: false,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onCall: (e) => events.push(e),
    ...overrides,
  });
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: "/api/oauth2/", method: "POST" }).reply(200, TOKEN).persist();
  return { client, pool, sleeps, events };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("ApiClient pipeline", () => {
  it("sends the version, account and bearer headers", async () => {
    const { client, pool } = setup();
    let seen: Record<string, string> = {};
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(200, (opts) => {
      seen = opts.headers as Record<string, string>;
      return "[]";
    });
    await client.call({ method: "GET", path: "/api/clouds" });
    expect(seen).toMatchObject({ "x-api-version": "1.5", "x-account": "1", authorization: "Bearer a1" });
  });

  it("retries an idempotent call on 503 and honours Retry-After as a floor", async () => {
    const { client, pool, sleeps, events } = setup();
    pool
      .intercept({ path: "/api/clouds", method: "GET" })
      .reply(503, "", { headers: { "retry-after": "2" } });
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(500, "");
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(200, "[]");
    await client.call({ method: "GET", path: "/api/clouds" });
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBe(250); // full jitter: 0.5 * min(8000, 250 * 2)
    expect(events.filter((e) => e.route === "/api/clouds").map((e) => [e.status, e.attempt])).toEqual([
      [503, 1],
      [500, 2],
      [200, 3],
    ]);
  });

  it("gives up after maxAttempts with the last error and its attempt count", async () => {
    const { client, pool } = setup({ retry: { maxAttempts: 3 } });
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(502, "").times(3);
    const error = await failure(client.call({ method: "GET", path: "/api/clouds" }));
    expect(error).toMatchObject({ kind: "retryable", status: 502, attempts: 3 });
  });

  it("retries a network error on GET", async () => {
    const { client, pool } = setup();
    pool
      .intercept({ path: "/api/clouds/1", method: "GET" })
      .replyWithError(Object.assign(new Error("reset"), { code: "ECONNRESET" }));
    pool.intercept({ path: "/api/clouds/1", method: "GET" }).reply(200, "{}");
    await expect(client.call({ method: "GET", path: "/api/clouds/1" })).resolves.toMatchObject({
      status: 200,
    });
  });

  it("never retries a create: a lost answer is outcomeUnknown, a 500 too", async () => {
    const { client, pool, events } = setup();
    pool
      .intercept({ path: "/api/deployments", method: "POST" })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "UND_ERR_SOCKET" }));
    const lost = await failure(
      client.call({ method: "POST", path: "/api/deployments", form: {}, create: true }),
    );
    expect(lost).toMatchObject({ kind: "outcomeUnknown", code: "SVC_OUTCOME_UNKNOWN", attempts: 1 });
    pool.intercept({ path: "/api/deployments", method: "POST" }).reply(500, "");
    const failed = await failure(
      client.call({ method: "POST", path: "/api/deployments", form: {}, create: true }),
    );
    expect(failed.kind).toBe("outcomeUnknown");
    pool
      .intercept({ path: "/api/deployments", method: "POST" })
      .reply(429, "", { headers: { "retry-after": "1" } });
    const throttled = await failure(
      client.call({ method: "POST", path: "/api/deployments", form: {}, create: true }),
    );
    expect(throttled.kind).toBe("throttled");
    expect(events.filter((e) => e.route === "/api/deployments")).toHaveLength(3);
  });

  it("retries a create whose connection was refused (never sent)", async () => {
    const { client, pool } = setup();
    pool
      .intercept({ path: "/api/deployments", method: "POST" })
      .replyWithError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    pool
      .intercept({ path: "/api/deployments", method: "POST" })
      .reply(201, "", { headers: { location: "/api/deployments/9" } });
    const result = await client.call({ method: "POST", path: "/api/deployments", form: {}, create: true });
    expect(result.headers.location).toBe("/api/deployments/9");
  });

  it("does not retry a non-idempotent action, retries an idempotent one", async () => {
    const { client, pool } = setup();
    pool.intercept({ path: "/api/audit_entries/1/append", method: "POST" }).reply(503, "");
    await expect(client.call({ method: "POST", path: "/api/audit_entries/1/append" })).rejects.toMatchObject({
      kind: "retryable",
      attempts: 1,
    });
    pool
      .intercept({ path: "/api/audit_entries/1/append", method: "POST" })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "UND_ERR_SOCKET" }));
    await expect(client.call({ method: "POST", path: "/api/audit_entries/1/append" })).rejects.toMatchObject({
      kind: "outcomeUnknown",
      attempts: 1,
    });
    pool.intercept({ path: "/api/deployments/1/lock", method: "POST" }).reply(503, "");
    pool.intercept({ path: "/api/deployments/1/lock", method: "POST" }).reply(204, "");
    await expect(
      client.call({ method: "POST", path: "/api/deployments/1/lock", idempotent: true }),
    ).resolves.toMatchObject({ status: 204 });
  });

  it("renews the token once after a 401 and retries once", async () => {
    const { client, pool, events } = setup();
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(401, "").times(3);
    const error = await failure(client.call({ method: "GET", path: "/api/clouds" }));
    expect(error.kind).toBe("unauthorized");
    expect(events.filter((e) => e.route === "/api/oauth2/")).toHaveLength(2);
    expect(events.filter((e) => e.route === "/api/clouds")).toHaveLength(2);
  });

  it("classifies 422 ResourceNotFound as notFound", async () => {
    const { client, pool } = setup();
    pool
      .intercept({ path: "/api/clouds/0", method: "GET" })
      .reply(422, "ResourceNotFound: Couldn't find Cloud with ID=0");
    const error = await failure(client.call({ method: "GET", path: "/api/clouds/0" }));
    expect(error).toMatchObject({ kind: "notFound", errorType: "ResourceNotFound", href: "/api/clouds/0" });
  });

  it("follows a 302 for a PUT with method and body, and remembers the host", async () => {
    const { client, pool } = setup();
    const other = agent!.get("https://us-4.svc.test");
    other.intercept({ path: "/api/oauth2/", method: "POST" }).reply(200, TOKEN).persist();
    pool
      .intercept({ path: "/api/deployments/1", method: "PUT" })
      .reply(302, "", { headers: { location: "https://us-4.svc.test/api/deployments/1" } });
    let body = "";
    other.intercept({ path: "/api/deployments/1", method: "PUT" }).reply(204, (opts) => {
      body = String(opts.body);
      return "";
    });
    other.intercept({ path: "/api/deployments/2", method: "GET" }).reply(200, "{}");
    await client.call({ method: "PUT", path: "/api/deployments/1", form: { deployment: { name: "x" } } });
    expect(decodeURIComponent(body)).toBe("deployment[name]=x");
    expect(client.currentOrigin).toBe("https://us-4.svc.test");
    await client.call({ method: "GET", path: "/api/deployments/2" });
  });

  it("refuses a redirect outside the service domain, naming the host", async () => {
    const { client, pool } = setup();
    pool
      .intercept({ path: "/api/clouds", method: "GET" })
      .reply(302, "", { headers: { location: "https://collector.evil.test/api/clouds" } });
    const error = await failure(client.call({ method: "GET", path: "/api/clouds" }));
    expect(error.code).toBe("SVC_REDIRECT_REFUSED");
    expect(error.message).toContain("collector.evil.test");
    expect(client.currentOrigin).toBe(ORIGIN);
  });

  it("refuses a redirect within the domain but outside allowedEndpoints, before sending anything there", async () => {
    const { client, pool } = setup({ allowedEndpoints: EndpointAllowlist.parse("us-3.svc.test") });
    pool
      .intercept({ path: "/api/clouds", method: "GET" })
      .reply(302, "", { headers: { location: "https://us-4.svc.test/api/clouds" } });
    // No interceptor on us-4: with net connect disabled, a request sent there would fail otherwise.
    const error = await failure(client.call({ method: "GET", path: "/api/clouds" }));
    expect(error).toMatchObject({ code: "SVC_ENDPOINT_NOT_ALLOWED", kind: "invalid" });
    expect(error.message).toContain(
      "redirect refused: host us-4.svc.test:443 is outside the operator's --allowed-endpoints (us-3.svc.test)",
    );
    expect(client.currentOrigin).toBe(ORIGIN);
  });
});

describe("oauth2 301 and opaque hrefs", () => {
  it("follows a 301 from the token endpoint with the grant, and keeps the new host", async () => {
    const { client, pool } = (() => {
      agent = new MockAgent();
      agent.disableNetConnect();
      const client = new ApiClient({
        endpoint: "https://us-3.svc.test",
        accountId: 7,
        auth: { type: "oauth", refreshToken: "rt", sendAccountId: true },
        dispatcher: agent,
        rateLimit: false,
        sleep: async () => {},
      });
      return { client, pool: agent.get("https://us-3.svc.test") };
    })();
    pool
      .intercept({ path: "/api/oauth2/", method: "POST" })
      .reply(301, "", { headers: { location: "https://us-4.svc.test/api/oauth2/" } });
    const other = agent.get("https://us-4.svc.test");
    let grant = "";
    other.intercept({ path: "/api/oauth2/", method: "POST" }).reply(200, (opts) => {
      grant = String(opts.body);
      return TOKEN;
    });
    other.intercept({ path: "/api/clouds", method: "GET" }).reply(200, "[]");
    await client.call({ method: "GET", path: "/api/clouds" });
    expect(new URLSearchParams(grant).get("account_id")).toBe("7");
    expect(new URLSearchParams(grant).get("grant_type")).toBe("refresh_token");
    expect(client.currentOrigin).toBe("https://us-4.svc.test");
  });

  it("sends an href with a `;` suffix exactly as given", async () => {
    const { client, pool, events } = setup();
    pool.intercept({ path: "/api/clouds/1/volumes/vol-1;zone-a", method: "GET" }).reply(200, "{}");
    await client.call({ method: "GET", path: "/api/clouds/1/volumes/vol-1;zone-a" });
    expect(events.at(-1)).toMatchObject({ route: "/api/clouds/:id/volumes/:id", status: 200 });
  });

  it("reports how long the rate limiter held each exchange back", async () => {
    // One token, ten a second, and a clock that stands still: the first call takes the token
    // before it authorizes, so the token grant it makes waits 100 ms, and the second call 200 ms
    // (it queues behind them).
    const { client, pool, events, sleeps } = setup({
      rateLimit: new TokenBucket({ ratePerSecond: 10, burst: 1 }, () => 0),
      now: () => 0,
    });
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(200, "[]").times(2);
    await client.call({ method: "GET", path: "/api/clouds" });
    await client.call({ method: "GET", path: "/api/clouds" });
    expect(events.map((e) => [e.route, e.rateLimitWaitMs])).toEqual([
      ["/api/oauth2/", 100],
      ["/api/clouds", 0],
      ["/api/clouds", 200],
    ]);
    expect(sleeps).toEqual([100, 200]);
  });
});

describe("session authentication", () => {
  function sessionSetup() {
    const ctx = setup({ auth: { type: "session", email: "a@example.com", password: "pw" } });
    let logins = 0;
    ctx.pool
      .intercept({ path: "/api/session", method: "POST" })
      .reply(
        204,
        () => {
          logins++;
          return "";
        },
        { headers: { "set-cookie": ["_session_id=s; Secure; HttpOnly"] } },
      )
      .persist();
    return { ...ctx, logins: () => logins };
  }

  it("logs in again once on the expired-session 403", async () => {
    const { client, pool, logins } = sessionSetup();
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(200, "[]");
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(403, "Session cookie is expired or invalid");
    pool.intercept({ path: "/api/clouds", method: "GET" }).reply(200, "[]");
    await client.call({ method: "GET", path: "/api/clouds" });
    await client.call({ method: "GET", path: "/api/clouds" });
    expect(logins()).toBe(2);
  });

  it("never logs in again for a missing-role 403", async () => {
    const { client, pool, logins } = sessionSetup();
    pool
      .intercept({ path: "/api/networks", method: "POST" })
      .reply(403, "PermissionDenied: the security_manager role is required");
    const error = await failure(
      client.call({ method: "POST", path: "/api/networks", form: {}, create: true }),
    );
    expect(error.kind).toBe("unauthorized");
    expect(logins()).toBe(1);
  });
});

describe("options", () => {
  const base = { endpoint: ORIGIN, accountId: 1, auth: { type: "oauth", refreshToken: "rt" } } as const;
  it.each([
    {
      reason: "relative endpoint",
      options: { endpoint: "/api" },
      message: /^endpoint: must be an https URL/,
    },
    { reason: "ftp endpoint", options: { endpoint: "ftp://x" }, message: /^endpoint: must be an https URL/ },
    {
      reason: "plain http endpoint on a remote host",
      options: { endpoint: "http://us-3.svc.test" },
      message: /^endpoint: must be an https URL; http is allowed only for a loopback host/,
    },
    {
      reason: "response size limit",
      options: { transport: { maxResponseBytes: 0 } },
      message: /^transport\.maxResponseBytes: must be a number > 0/,
    },
    { reason: "account id", options: { accountId: "abc" }, message: /^accountId: must be digits/ },
    {
      reason: "retry attempts",
      options: { retry: { maxAttempts: 0 } },
      message: /^retry\.maxAttempts: must be a number > 0/,
    },
    {
      reason: "timeout",
      options: { transport: { requestTimeoutMs: -1 } },
      message: /^transport\.requestTimeoutMs/,
    },
    { reason: "redirects", options: { maxRedirects: 1.5 }, message: /^maxRedirects/ },
    { reason: "service domain", options: { serviceDomain: [] }, message: /^serviceDomain/ },
    {
      reason: "endpoint outside allowedEndpoints",
      options: { allowedEndpoints: EndpointAllowlist.parse("*.example-cloud.com") },
      message: /^endpoint: host .* is outside the operator's --allowed-endpoints \(\*\.example-cloud\.com\)$/,
    },
    { reason: "rate", options: { rateLimit: { ratePerSecond: 0, burst: 1 } }, message: /ratePerSecond/ },
  ])("rejects a bad $reason, naming the option", ({ options, message }) => {
    expect(() => new ApiClient({ ...base, ...options } as ApiClientOptions)).toThrow(message);
  });
});
