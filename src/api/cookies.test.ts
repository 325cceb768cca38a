import { describe, expect, it } from "vitest";
import { CookieJar } from "./cookies.ts";

describe("CookieJar", () => {
  it("keeps every cookie of a response and sends them back", () => {
    const jar = new CookieJar(() => 0);
    jar.update([
      "svc_global=abc; Domain=.example.com; Path=/; HttpOnly",
      "_session_id=s1; Path=/; Secure; HttpOnly",
    ]);
    expect(jar.header()).toBe("svc_global=abc; _session_id=s1");
  });

  it("replaces a re-issued cookie and leaves the others", () => {
    const jar = new CookieJar(() => 0);
    jar.update(["a=1", "_session_id=s1"]);
    jar.update("_session_id=s2; Secure");
    expect(jar.header()).toBe("a=1; _session_id=s2");
  });

  it("drops cookies deleted with Max-Age=0 or a past Expires, and ones that expire later", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const jar = new CookieJar(() => now);
    jar.update(["a=1", "b=2; Max-Age=60", "c=3"]);
    jar.update(["a=; Max-Age=0", "c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"]);
    expect(jar.header()).toBe("b=2");
    now += 61_000;
    expect(jar.header()).toBeUndefined();
  });

  it("ignores unreadable lines and absent headers", () => {
    const jar = new CookieJar(() => 0);
    jar.update(undefined);
    jar.update(["", "=novalue"]);
    expect(jar.header()).toBeUndefined();
  });
});
