import { describe, expect, it } from "vitest";
import { REDACTED, redactFields } from "./redact-fields.ts";

const SESSION = "f3a9c2e71b5d";

describe("redactFields", () => {
  it.each([
    {
      reason: "a Cookie header line",
      text: `GET /api/x\r\nCookie: a=1; _session_id=${SESSION}; b=2\r\nAccept: */*`,
      out: `GET /api/x\r\nCookie: ${REDACTED}\r\nAccept: */*`,
    },
    {
      reason: "a cookie= echo followed by more fields",
      text: `cookie=a=1; _session_id=${SESSION} body=x`,
      out: `cookie=${REDACTED} body=x`,
    },
    {
      reason: "JSON",
      text: `{"headers":{"cookie":"a=1; _session_id=${SESSION}","accept":"*/*"}}`,
      out: `{"headers":{"cookie":"${REDACTED}","accept":"*/*"}}`,
    },
    {
      reason: "JSON inside a JSON string",
      text: JSON.stringify({ body: JSON.stringify({ Cookie: `_session_id=${SESSION}`, x: 1 }) }),
      out: JSON.stringify({ body: JSON.stringify({ Cookie: REDACTED, x: 1 }) }),
    },
    {
      reason: "a JavaScript inspection",
      text: `{ cookie: '_session_id=${SESSION}', 'set-cookie': [ 'a=1; Path=/' ] }`,
      out: `{ cookie: '${REDACTED}', 'set-cookie': ${REDACTED} }`,
    },
    {
      reason: "a raw header list",
      text: `["Host","x","Cookie","_session_id=${SESSION}"]`,
      out: `["Host","x","Cookie","${REDACTED}"]`,
    },
    {
      reason: "URL-encoded",
      text: `debug=cookie%3A%20_session_id%3D${SESSION}%3B%20b%3D2&x=1`,
      out: `debug=cookie%3A${REDACTED}&x=1`,
    },
    {
      reason: "a Set-Cookie line with an Expires date",
      text: `Set-Cookie: _session_id=${SESSION}; Expires=Thu, 01 Jan 2026 00:00:00 GMT; HttpOnly\nnext`,
      out: `Set-Cookie: ${REDACTED}\nnext`,
    },
    {
      reason: "an Authorization header line",
      text: "Authorization: Bearer at+/token=\r\nx",
      out: `Authorization: ${REDACTED}\r\nx`,
    },
    {
      reason: "an authorization= echo",
      text: "authorization=Bearer at+/token= cookie=",
      out: `authorization=${REDACTED} cookie=`,
    },
    {
      reason: "a token grant form",
      text: "grant_type=refresh_token&refresh_token=rt%2Bx&account_id=1",
      out: `grant_type=refresh_token&refresh_token=${REDACTED}&account_id=1`,
    },
    {
      reason: "a login form",
      text: "email=a%40b.c&password=p%40ss+word&account_href=%2Fapi",
      out: `email=a%40b.c&password=${REDACTED}&account_href=%2Fapi`,
    },
    {
      reason: "JSON token fields, with escapes",
      text: `{"access_token":"a\\"b","refreshToken":"r","token_type":"bearer","password":"p"}`,
      out: `{"access_token":"${REDACTED}","refreshToken":"${REDACTED}","token_type":"bearer","password":"${REDACTED}"}`,
    },
    {
      reason: "a value cut before its closing quote",
      text: `{"cookie":"_session_id=${SESSION.slice(0, 4)}`,
      out: `{"cookie":"${REDACTED}`,
    },
  ])("removes the value of $reason", ({ text, out }) => {
    expect(redactFields(text)).toBe(out);
  });

  it.each([
    "Session cookie is expired or invalid",
    "PermissionDenied: A user must have the observer role",
    '[["password","is too short"]]',
    "password: is too short",
    "cookies: 3, tokens: 2",
    '{"token_type":"bearer","authorization":""}',
    "authorization= cookie=",
  ])("leaves %j as it is", (text) => {
    expect(redactFields(text)).toBe(text);
  });

  it("covers the session cookie however many cookies come before it", () => {
    const others = Array.from({ length: 100 }, (_, i) => `c${i}=value${i}`).join("; ");
    const out = redactFields(`Bad request: cookie=${others}; _session_id=${SESSION} body=`);
    expect(out).toBe(`Bad request: cookie=${REDACTED} body=`);
  });
});
