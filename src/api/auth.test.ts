import { describe, expect, it } from "vitest";
import { OAuthAuthenticator, SessionAuthenticator, type UnauthenticatedSend } from "./auth.ts";
import type { WireResponse } from "./transport.ts";

function tokenSender(expiresIn = 7200) {
  const calls: Array<Record<string, string>> = [];
  let n = 0;
  const send: UnauthenticatedSend = async ({ form }) => {
    calls.push(form);
    await new Promise((r) => setImmediate(r));
    n++;
    return {
      status: 200,
      headers: {},
      body: JSON.stringify({ access_token: `t${n}`, expires_in: expiresIn, token_type: "bearer" }),
    };
  };
  return { send, calls };
}

/** Account 1, refresh token `rt`, nothing logged: what most of these tests need. */
function oauth(send: UnauthenticatedSend, now: () => number = () => 0): OAuthAuthenticator {
  return new OAuthAuthenticator({ type: "oauth", refreshToken: "rt" }, "1", send, now, () => {});
}

describe("OAuthAuthenticator", () => {
  it("runs one grant however many calls wait, then reuses the token", async () => {
    const { send, calls } = tokenSender();
    const auth = oauth(send);
    const headers = Array.from({ length: 20 }, () => ({}) as Record<string, string>);
    await Promise.all(headers.map((h) => auth.authorize(h)));
    expect(calls).toEqual([{ grant_type: "refresh_token", refresh_token: "rt" }]);
    expect(new Set(headers.map((h) => h.authorization))).toEqual(new Set(["Bearer t1"]));
  });

  it("refreshes at half of expires_in", async () => {
    const { send, calls } = tokenSender(100);
    let now = 0;
    const auth = oauth(send, () => now);
    await auth.authorize({});
    now = 49_999;
    expect(typeof auth.authorize({})).toBe("number"); // still valid: no grant, no promise
    now = 50_000;
    const h: Record<string, string> = {};
    await auth.authorize(h);
    expect(h.authorization).toBe("Bearer t2");
    expect(calls).toHaveLength(2);
  });

  it("renews once for concurrent 401s on the same token generation", async () => {
    const { send, calls } = tokenSender();
    const auth = oauth(send);
    const generation = await auth.authorize({});
    await Promise.all([auth.renew(generation), auth.renew(generation), auth.renew(generation)]);
    expect(calls).toHaveLength(2);
    expect(auth.shouldRenew(401)).toBe(true);
    expect(auth.shouldRenew(403)).toBe(false);
  });

  it("keeps using an unexpired token when a refresh fails", async () => {
    let fail = false;
    const warnings: string[] = [];
    const send: UnauthenticatedSend = async () => {
      if (fail) throw new Error("down");
      return {
        status: 200,
        headers: {},
        body: '{"access_token":"t","expires_in":100,"token_type":"bearer"}',
      };
    };
    let now = 0;
    const auth = new OAuthAuthenticator(
      { type: "oauth", refreshToken: "rt" },
      "7",
      send,
      () => now,
      (m) => warnings.push(m),
    );
    await auth.authorize({});
    fail = true;
    now = 60_000;
    const h: Record<string, string> = {};
    await auth.authorize(h);
    expect(h.authorization).toBe("Bearer t");
    expect(warnings).toHaveLength(1);
    now = 100_000;
    await expect(auth.authorize({})).rejects.toThrow("down");
  });

  it("rejects a malformed token response with a clear error", async () => {
    const send: UnauthenticatedSend = async () => ({ status: 200, headers: {}, body: '{"token":"x"}' });
    const auth = oauth(send);
    await expect(auth.authorize({})).rejects.toMatchObject({ code: "SVC_BAD_RESPONSE" });
  });

  it("sends account_id only when asked", async () => {
    const { send, calls } = tokenSender();
    const auth = new OAuthAuthenticator(
      { type: "oauth", refreshToken: "rt", sendAccountId: true },
      "42",
      send,
      () => 0,
      () => {},
    );
    await auth.authorize({});
    expect(calls[0]).toMatchObject({ account_id: "42" });
  });
});

describe("SessionAuthenticator", () => {
  function sessionSender() {
    const calls: Array<Record<string, string>> = [];
    let auth: SessionAuthenticator | undefined;
    const send: UnauthenticatedSend = async ({ form }) => {
      calls.push(form);
      const response: WireResponse = {
        status: 204,
        headers: { "set-cookie": ["global=g; HttpOnly", `_session_id=s${calls.length}; Secure; HttpOnly`] },
        body: "",
      };
      auth!.observe(response, "us-3.example.com");
      return response;
    };
    return { calls, send, bind: (a: SessionAuthenticator) => (auth = a) };
  }

  it("logs in once, sends every cookie, and takes re-issued cookies from any response", async () => {
    const s = sessionSender();
    const auth = s.bind(
      new SessionAuthenticator({ type: "session", email: "e", password: "p" }, "1", s.send, () => 0),
    );
    const hs = [{}, {}, {}] as Array<Record<string, string>>;
    await Promise.all(hs.map((h) => auth.authorize(h)));
    expect(s.calls).toEqual([{ email: "e", password: "p", account_href: "/api/accounts/1" }]);
    expect(hs.map((h) => h.cookie)).toEqual(Array(3).fill("global=g; _session_id=s1"));
    auth.observe(
      { status: 200, headers: { "set-cookie": ["_session_id=s9"] }, body: "" },
      "us-3.example.com",
    );
    const h: Record<string, string> = {};
    auth.authorize(h);
    expect(h.cookie).toBe("global=g; _session_id=s9");
  });

  it("holds the session cookie's value for scrubbing, not the other cookies'", () => {
    const held: string[] = [];
    const auth = new SessionAuthenticator(
      { type: "session", email: "e", password: "p" },
      "1",
      async () => {
        throw new Error("unused");
      },
      () => 0,
      (value) => held.push(value),
    );
    const cookies = Array.from({ length: 40 }, (_, i) => `tracker${i}=tracker-value-${i}`);
    auth.observe(
      { status: 204, headers: { "set-cookie": [...cookies, "_session_id=s-123456789"] }, body: "" },
      "h",
    );
    auth.observe({ status: 200, headers: { "set-cookie": ["other=other-value-1"] }, body: "" }, "h");
    expect(held).toEqual(["s-123456789", "s-123456789"]);
  });

  it("renews on 401 and on the expired-session 403 only, never on a role 403", () => {
    const auth = new SessionAuthenticator(
      { type: "session", email: "e", password: "p" },
      "1",
      async () => {
        throw new Error("unused");
      },
      () => 0,
    );
    expect(auth.shouldRenew(401, "")).toBe(true);
    expect(auth.shouldRenew(403, "Session cookie is expired or invalid")).toBe(true);
    expect(auth.shouldRenew(403, "PermissionDenied: missing role actor")).toBe(false);
    expect(auth.shouldRenew(422, "Session cookie is expired or invalid")).toBe(false);
  });
});
