import { describe, expect, it } from "vitest";
import { Authenticator, GLOBAL_COOKIE, SESSION_COOKIE } from "./auth.ts";
import { fixedClock } from "./clock.ts";
import type { SimError } from "./errors.ts";

const cookieHeader = (setCookies: string[]) => setCookies.map((c) => c.split(";")[0]).join("; ");

function failure(fn: () => unknown): SimError {
  try {
    fn();
  } catch (error) {
    return error as SimError;
  }
  throw new Error("expected a failure");
}

describe("Authenticator", () => {
  it("sessions: two cookies, 2 hours of non-use, refreshed by use", () => {
    const clock = fixedClock(0);
    const auth = new Authenticator(clock, { cookieDomain: "example.com" });
    const cookies = auth.login("1", "1");
    expect(cookies[0]).toMatch(new RegExp(`^${GLOBAL_COOKIE}=\\w+; Path=/; Domain=example.com; HttpOnly$`));
    expect(cookies[1]).toMatch(new RegExp(`^${SESSION_COOKIE}=\\w+; Path=/; Secure; HttpOnly$`));
    const headers = { cookie: cookieHeader(cookies) };
    clock.advance(7199);
    expect(auth.authenticate(headers)).toEqual({ userId: "1", accountId: "1", via: "session" });
    clock.advance(7199);
    expect(auth.authenticate(headers).userId).toBe("1");
    clock.advance(7200);
    const expired = failure(() => auth.authenticate(headers));
    expect([expired.status, expired.body]).toEqual([403, "Session cookie is expired or invalid"]);
  });

  it("access tokens: 7200 s, then 401", () => {
    const clock = fixedClock(0);
    const auth = new Authenticator(clock);
    const { token, expiresIn } = auth.issueAccessToken("1", "1");
    expect(expiresIn).toBe(7200);
    const headers = { authorization: `Bearer ${token}` };
    clock.advance(7199);
    expect(auth.authenticate(headers).via).toBe("oauth");
    clock.advance(1);
    const expired = failure(() => auth.authenticate(headers));
    expect([expired.status, expired.body]).toEqual([401, "AuthenticationError: access token is expired"]);
  });

  it("no credentials is the session 403", () => {
    const error = failure(() => new Authenticator(fixedClock(0)).authenticate({}));
    expect(error.status).toBe(403);
  });

  it("forgets expired sessions and tokens as new ones are issued", () => {
    const clock = fixedClock(0);
    const auth = new Authenticator(clock);
    for (let i = 0; i < 600; i++) {
      auth.login("1", "1");
      auth.issueAccessToken("1", "1");
    }
    expect(auth.size).toEqual({ sessions: 600, tokens: 600 });
    clock.advance(7200);
    // the sweep runs at every 1000th issue: the 2000th is the 800th login below
    for (let i = 0; i < 800; i++) auth.login("1", "1");
    expect(auth.size).toEqual({ sessions: 800, tokens: 0 });
  });
});
