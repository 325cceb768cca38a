import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "./redact.ts";

describe("redactSecrets", () => {
  it("replaces credential-like fields at any depth, keeps everything else", () => {
    const state = {
      users: [
        { id: "1", email: "a@x", password: "pw", refresh_token: "rt", settings: ["monitoring_api"] },
        { id: "2", email: "b@x", password: "pw2", refresh_token: null },
      ],
      things: [{ name: "x", nested: { client_secret: "s", session_cookie: "c", note: "token-free" } }],
    };
    expect(redactSecrets(state)).toEqual({
      users: [
        { id: "1", email: "a@x", password: REDACTED, refresh_token: REDACTED, settings: ["monitoring_api"] },
        { id: "2", email: "b@x", password: REDACTED, refresh_token: null },
      ],
      things: [
        { name: "x", nested: { client_secret: REDACTED, session_cookie: REDACTED, note: "token-free" } },
      ],
    });
  });
});
