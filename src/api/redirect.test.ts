import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { defaultServiceDomain, isHostInDomain, resolveRedirect } from "./redirect.ts";

describe("defaultServiceDomain", () => {
  it.each([
    { endpoint: "https://us-3.example.com", domain: ["example.com"] },
    { endpoint: "https://api.us-3.example.com:8443", domain: ["us-3.example.com"] },
    { endpoint: "https://example.com", domain: ["example.com"] },
    { endpoint: "http://127.0.0.1:9292", domain: ["127.0.0.1"] },
    { endpoint: "http://localhost:9292", domain: ["localhost"] },
    { endpoint: "http://[::1]:9292", domain: ["::1"] },
  ])("$endpoint -> $domain", ({ endpoint, domain }) => {
    expect(defaultServiceDomain(new URL(endpoint))).toEqual(domain);
  });
});

describe("isHostInDomain", () => {
  it.each([
    { reason: "sibling region", host: "us-4.example.com", domain: ["example.com"], ok: true },
    { reason: "the parent itself", host: "example.com", domain: ["example.com"], ok: true },
    { reason: "case and trailing dot", host: "US-4.Example.COM.", domain: ["example.com"], ok: true },
    { reason: "lookalike suffix", host: "evilexample.com", domain: ["example.com"], ok: false },
    { reason: "foreign", host: "attacker.net", domain: ["example.com"], ok: false },
    { reason: "same IP (ports are not compared)", host: "127.0.0.1", domain: ["127.0.0.1"], ok: true },
    { reason: "other IP", host: "127.0.0.2", domain: ["127.0.0.1"], ok: false },
    { reason: "IP never matches as a suffix", host: "10.0.0.1", domain: ["0.0.1"], ok: false },
    { reason: "allow-list of several", host: "eu.other.org", domain: ["example.com", "other.org"], ok: true },
  ])("$reason", ({ host, domain, ok }) => {
    expect(isHostInDomain(host, domain)).toBe(ok);
  });
});

describe("resolveRedirect", () => {
  const current = new URL("http://127.0.0.1:9293/api/deployments");
  it("resolves an absolute location on the same host, another port", () => {
    expect(
      resolveRedirect("POST", current, "http://127.0.0.1:9292/api/deployments", ["127.0.0.1"]).href,
    ).toBe("http://127.0.0.1:9292/api/deployments");
  });
  it("resolves a relative location", () => {
    expect(resolveRedirect("GET", current, "/api/x", ["127.0.0.1"]).href).toBe("http://127.0.0.1:9293/api/x");
  });
  it.each([
    { reason: "foreign host", location: "http://evil.test/api/deployments", message: /evil\.test/ },
    { reason: "other scheme", location: "ftp://127.0.0.1/x", message: /scheme ftp:/ },
  ])("refuses a $reason, naming it", ({ location, message }) => {
    let error: unknown;
    try {
      resolveRedirect("POST", current, location, ["127.0.0.1"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("SVC_REDIRECT_REFUSED");
    expect((error as ApiError).message).toMatch(message);
  });
  it("refuses an https -> http downgrade", () => {
    expect(() =>
      resolveRedirect("GET", new URL("https://us-3.example.com/api"), "http://us-4.example.com/api", [
        "example.com",
      ]),
    ).toThrow(/downgrade/);
  });
});
