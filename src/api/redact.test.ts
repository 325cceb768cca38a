import { describe, expect, it } from "vitest";
import { encodeForm } from "./encoding.ts";
import { ApiError, errorFromResponse } from "./errors.ts";
import { credentialForms, REDACTED, Redactor } from "./redact.ts";

// A value with every character an encoding treats differently: space, +, /, &, =, ", ', *, %, non-ASCII.
const SECRET = `pa ss+wo/rd&x="y"'*%é`;

describe("credentialForms", () => {
  it.each([
    { reason: "as sent", form: SECRET },
    { reason: "encodeURIComponent", form: encodeURIComponent(SECRET) },
    { reason: "the client's own form body (qs, RFC 3986)", form: encodeForm({ v: SECRET }).slice(2) },
    {
      reason: "WHATWG form encoding (+ for a space)",
      form: new URLSearchParams({ v: SECRET }).toString().slice(2),
    },
    {
      reason: "encodeURIComponent with + for a space",
      form: encodeURIComponent(SECRET).replaceAll("%20", "+"),
    },
    { reason: "JSON-escaped", form: JSON.stringify(SECRET).slice(1, -1) },
    { reason: "JSON-escaped with \\/", form: JSON.stringify(SECRET).slice(1, -1).replaceAll("/", "\\/") },
    {
      reason: "JSON-escaped, non-ASCII as \\uXXXX",
      form: JSON.stringify(SECRET).slice(1, -1).replace("é", "\\u00e9"),
    },
  ])("includes the form $reason", ({ form }) => {
    expect(credentialForms(SECRET)).toContain(form);
  });
});

describe("Redactor.text", () => {
  const redactor = new Redactor([SECRET, "admin@example.com"]);
  it.each([
    { reason: "raw in a sentence", text: `login failed for ${SECRET}!` },
    {
      reason: "in an echoed form body",
      text: `email=admin%40example.com&password=${encodeForm({ v: SECRET }).slice(2)}`,
    },
    { reason: "WHATWG-encoded", text: `body: ${new URLSearchParams({ password: SECRET })}` },
    { reason: "lower-case percent escapes", text: `x=${encodeURIComponent(SECRET).toLowerCase()}` },
    {
      reason: "in an echoed JSON document",
      text: JSON.stringify({ headers: {}, body: { password: SECRET } }),
    },
    { reason: "twice", text: `${SECRET} and ${SECRET}` },
  ])("removes the secret $reason", ({ text }) => {
    const out = redactor.text(text);
    expect(out).toContain(REDACTED);
    for (const form of credentialForms(SECRET)) expect(out.toLowerCase()).not.toContain(form.toLowerCase());
    expect(out).not.toContain("admin@example.com");
    expect(out).not.toContain("admin%40example.com");
  });

  it("leaves text without a secret as it is", () => {
    expect(redactor.text("ResourceNotFound: Couldn't find Cloud with ID=0")).toBe(
      "ResourceNotFound: Couldn't find Cloud with ID=0",
    );
  });

  it("a value inside a longer one leaves nothing of the longer behind", () => {
    const r = new Redactor(["abcd", "xxabcdxx"]);
    expect(r.text("<xxabcdxx>")).toBe(`<${REDACTED}>`);
  });

  it("scrubs the Account's credentials whatever their length, obtained ones from 8 characters", () => {
    const r = new Redactor(["pw"]);
    r.hold("en");
    r.hold("session-cookie-1");
    expect(r.text("pw / en / session-cookie-1")).toBe(`${REDACTED} / en / ${REDACTED}`);
  });

  it("keeps the 32 newest obtained values", () => {
    const r = new Redactor([]);
    for (let i = 0; i < 40; i++) r.hold(`access-token-${i}`);
    expect(r.text("access-token-7")).toBe("access-token-7");
    expect(r.text("access-token-8")).toBe(REDACTED);
    expect(r.text("access-token-39")).toBe(REDACTED);
  });

  it("a value held again becomes the newest: 32 others after it do not push it out", () => {
    const r = new Redactor([]);
    r.hold("session-cookie-0");
    for (let i = 1; i < 32; i++) r.hold(`access-token-${i}`);
    r.hold("session-cookie-0");
    r.hold("access-token-32");
    expect(r.text("session-cookie-0")).toBe(REDACTED);
    expect(r.text("access-token-1")).toBe("access-token-1");
  });

  it("removes every cookie of an echoed Cookie header, however many, with nothing held", () => {
    const r = new Redactor([]);
    const others = Array.from({ length: 40 }, (_, i) => `tracker${i}=value-${i}-0123456789`);
    const header = [...others, "_session_id=session-cookie-value-1"].join("; ");
    for (const text of [
      `Bad request: cookie=${header} body=`,
      `Cookie: a=1; _session_id=session-cookie-value-1; b=2`,
      JSON.stringify({ headers: { cookie: header } }),
    ]) {
      const out = r.text(text);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain("session-cookie-value-1");
      expect(out).not.toContain("value-39-0123456789");
    }
  });

  it("removes the Account's credentials by value and the fields by what they are, together", () => {
    const r = new Redactor(["rt+/raw=refresh"]);
    const text = "grant_type=refresh_token&refresh_token=rt%2B%2Fraw%3Drefresh also rt+/raw=refresh";
    expect(r.text(text)).toBe(`grant_type=refresh_token&refresh_token=${REDACTED} also ${REDACTED}`);
  });

  it("leaves text without a credential as it is", () => {
    expect(new Redactor([]).text("anything")).toBe("anything");
  });
});

describe("Redactor.error", () => {
  const redactor = new Redactor(["refresh-token-value"]);

  it("scrubs an ApiError in place: message, stack, service message, field errors, href; keeps kind and code", () => {
    const body = `[["password","refresh-token-value is wrong"]]`;
    const error = errorFromResponse("POST", "/api/x?t=refresh-token-value", 422, body);
    const same = redactor.error(error);
    expect(same).toBe(error);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: "conflict", code: "SVC_CONFLICT", status: 422 });
    const all = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    expect(all).not.toContain("refresh-token-value");
    expect(error.fieldErrors).toEqual([["password", `${REDACTED} is wrong`]]);
    expect(error.href).toBe(`/api/x?t=${REDACTED}`);
  });

  it("follows the cause chain", () => {
    const inner = new TypeError("Invalid URL refresh-token-value");
    Object.assign(inner, { input: "http://x/?refresh-token-value" });
    const outer = new Error("failed", { cause: new Error("wrapped refresh-token-value", { cause: inner }) });
    redactor.error(outer);
    const cause = outer.cause as Error;
    expect(cause.message).toBe(`wrapped ${REDACTED}`);
    expect((cause.cause as Error).message).toBe(`Invalid URL ${REDACTED}`);
    expect((cause.cause as { input: string }).input).toBe(`http://x/?${REDACTED}`);
  });

  it("scrubs an error without any credential held: the fields are found by what they are", () => {
    const error = errorFromResponse("GET", "/api/x", 400, "Bad request: cookie=_session_id=abc123; x=1");
    new Redactor([]).error(error);
    expect(error.message).not.toContain("abc123");
    expect(error.serviceMessage).toBe(`Bad request: cookie=${REDACTED}`);
  });

  it("passes a non-error through", () => {
    expect(redactor.error("refresh-token-value")).toBe("refresh-token-value");
  });
});
