import { describe, expect, it } from "vitest";
import { CookieJar, domainAccepts, MAX_COOKIE_BYTES, MAX_COOKIES } from "./cookies.ts";

const HOST = "us-3.example.com";

function jar(now: () => number = () => 0): CookieJar {
  return new CookieJar("_session_id", now);
}

describe("CookieJar", () => {
  it("keeps every cookie of a response and sends them back", () => {
    const j = jar();
    j.update(
      ["svc_global=abc; Domain=.example.com; Path=/; HttpOnly", "_session_id=s1; Path=/; Secure; HttpOnly"],
      HOST,
    );
    expect(j.header()).toBe("svc_global=abc; _session_id=s1");
    expect(j.get("_session_id")).toBe("s1");
  });

  it("replaces a re-issued cookie and leaves the others", () => {
    const j = jar();
    j.update(["a=1", "_session_id=s1"], HOST);
    j.update("_session_id=s2; Secure", HOST);
    expect(j.header()).toBe("a=1; _session_id=s2");
  });

  it("drops cookies deleted with Max-Age=0 or a past Expires, and ones that expire later", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const j = jar(() => now);
    j.update(["a=1", "b=2; Max-Age=60", "c=3"], HOST);
    j.update(["a=; Max-Age=0", "c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], HOST);
    expect(j.header()).toBe("b=2");
    now += 61_000;
    expect(j.header()).toBeUndefined();
    expect(j.get("b")).toBeUndefined();
  });

  it("ignores unreadable lines and absent headers", () => {
    const j = jar();
    j.update(undefined, HOST);
    j.update(["", "=novalue"], HOST);
    expect(j.header()).toBeUndefined();
  });

  it(`keeps at most ${MAX_COOKIES} cookies however many a service sets, the newest`, () => {
    const j = jar();
    for (let answer = 0; answer < 30; answer++)
      j.update(
        Array.from({ length: 100 }, (_, i) => `c${answer}_${i}=v`),
        HOST,
      );
    expect(j.names()).toHaveLength(MAX_COOKIES);
    expect(j.names().at(-1)).toBe("c29_99");
    expect(j.names()[0]).toBe(`c29_${100 - MAX_COOKIES}`);
  });

  it("never evicts the session cookie to make room for others", () => {
    const j = jar();
    j.update(["_session_id=s1; Secure; HttpOnly", "svc_global=g"], HOST);
    for (let i = 0; i < 3 * MAX_COOKIES; i++) j.update(`junk${i}=x`, HOST);
    expect(j.names()).toHaveLength(MAX_COOKIES);
    expect(j.get("_session_id")).toBe("s1");
    expect(j.header()).toContain("_session_id=s1");
    // The oldest other cookie went first.
    expect(j.get("svc_global")).toBeUndefined();
  });

  it("makes room from expired cookies before live ones", () => {
    let now = 0;
    const j = jar(() => now);
    j.update(["keep=1", "short=1; Max-Age=1"], HOST);
    for (let i = 0; i < MAX_COOKIES - 2; i++) j.update(`c${i}=x`, HOST);
    now = 2000;
    j.update("new=1", HOST);
    expect(j.get("keep")).toBe("1");
    expect(j.names()).toHaveLength(MAX_COOKIES);
  });

  it(`refuses a cookie over ${MAX_COOKIE_BYTES} bytes (name and value), keeping the old value`, () => {
    const j = jar();
    j.update("_session_id=s1", HOST);
    const name = "_session_id";
    j.update(`${name}=${"x".repeat(MAX_COOKIE_BYTES - name.length + 1)}`, HOST);
    expect(j.get(name)).toBe("s1");
    j.update(`${name}=${"x".repeat(MAX_COOKIE_BYTES - name.length)}`, HOST);
    expect(j.get(name)).toHaveLength(MAX_COOKIE_BYTES - name.length);
  });

  it.each([
    { reason: "a space in the value", line: "a=x y" },
    { reason: "a quoted value", line: 'a="xy"' },
    { reason: "a backslash", line: "a=x\\y" },
    { reason: "a comma", line: "a=x,y" },
    { reason: "non-ASCII", line: "a=é" },
    { reason: "a separator in the name", line: "a(b)=1" },
  ])("refuses a cookie outside the RFC 6265 grammar: $reason", ({ line }) => {
    const j = jar();
    j.update(line, HOST);
    expect(j.header()).toBeUndefined();
  });

  it("keeps only cookies whose Domain domain-matches the host that set them", () => {
    const j = jar();
    j.update(
      [
        "own=1; Domain=us-3.example.com",
        "parent=1; Domain=.EXAMPLE.com",
        "hostonly=1",
        "empty=1; Domain=",
        "sibling=1; Domain=us-4.example.com",
        "foreign=1; Domain=evil.com",
        "suffix=1; Domain=com",
        "child=1; Domain=a.us-3.example.com",
      ],
      HOST,
    );
    expect(j.names()).toEqual(["own", "parent", "hostonly", "empty"]);
  });

  it("takes a regional host's cookies from that host", () => {
    const j = jar();
    j.update("_session_id=s1; Domain=us-3.example.com", "us-3.example.com");
    j.update("_session_id=s2; Domain=us-4.example.com", "us-4.example.com");
    expect(j.header()).toBe("_session_id=s2");
  });
});

describe("domainAccepts", () => {
  it.each([
    { domain: "example.com", host: "us-3.example.com", accepted: true },
    { domain: "us-3.example.com", host: "US-3.example.com.", accepted: true },
    { domain: "svc.co.uk", host: "us-3.svc.co.uk", accepted: true },
    { domain: "co.uk", host: "us-3.svc.co.uk", accepted: false },
    { domain: "github.io", host: "team.github.io", accepted: false },
    { domain: "le.com", host: "example.com", accepted: false },
    { domain: "127.0.0.1", host: "127.0.0.1", accepted: true },
    { domain: "0.0.1", host: "127.0.0.1", accepted: false },
    { domain: "localhost", host: "localhost", accepted: true },
  ])("Domain=$domain from $host: $accepted", ({ domain, host, accepted }) => {
    expect(domainAccepts(domain, host)).toBe(accepted);
  });
});
