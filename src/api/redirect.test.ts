import { describe, expect, it } from "vitest";
import { EndpointAllowlist } from "./allowlist.ts";
import { ApiError } from "./errors.ts";
import {
  isHostInDomain,
  redirectHostProblem,
  redirectScope,
  registrableDomain,
  resolveRedirect,
} from "./redirect.ts";

describe("registrableDomain (public suffix list, private suffixes included)", () => {
  it.each([
    { reason: "regional host under a .com", host: "us-3.example.com", domain: "example.com" },
    { reason: "the domain itself", host: "example.com", domain: "example.com" },
    { reason: "a two-label public suffix", host: "a.co.uk", domain: "a.co.uk" },
    { reason: "deeper under a two-label suffix", host: "api.a.co.uk", domain: "a.co.uk" },
    { reason: "a private suffix (github.io)", host: "team.github.io", domain: "team.github.io" },
    { reason: "a public suffix has none", host: "co.uk", domain: undefined },
    { reason: "a private suffix itself has none", host: "github.io", domain: undefined },
    { reason: "an IPv4 address has none", host: "127.0.0.1", domain: undefined },
    { reason: "an IPv6 address has none", host: "[::1]", domain: undefined },
    { reason: "a single label has none", host: "localhost", domain: undefined },
    { reason: "case and a trailing dot are the same host", host: "US-3.Example.COM.", domain: "example.com" },
  ])("$reason: $host -> $domain", ({ host, domain }) => {
    expect(registrableDomain(host)).toBe(domain);
  });
});

describe("redirectHostProblem: where a redirect may carry the credentials", () => {
  it.each([
    {
      reason: "sibling regional host",
      endpoint: "https://us-3.example.com",
      target: "us-4.example.com",
      ok: true,
    },
    {
      reason: "the registrable domain itself",
      endpoint: "https://us-3.example.com",
      target: "example.com",
      ok: true,
    },
    { reason: "deeper subdomain", endpoint: "https://us-3.example.com", target: "a.b.example.com", ok: true },
    { reason: "the same host", endpoint: "https://us-3.example.com", target: "us-3.example.com", ok: true },
    {
      reason: "case and trailing dot",
      endpoint: "https://us-3.example.com",
      target: "US-4.Example.COM.",
      ok: true,
    },
    {
      reason: "lookalike suffix",
      endpoint: "https://us-3.example.com",
      target: "evilexample.com",
      ok: false,
    },
    {
      reason: "the domain as a subdomain elsewhere",
      endpoint: "https://us-3.example.com",
      target: "example.com.evil.net",
      ok: false,
    },
    { reason: "foreign domain", endpoint: "https://us-3.example.com", target: "attacker.net", ok: false },
    { reason: "another domain under co.uk", endpoint: "https://a.co.uk", target: "evil.co.uk", ok: false },
    {
      reason: "subdomain under the same co.uk domain",
      endpoint: "https://a.co.uk",
      target: "eu.a.co.uk",
      ok: true,
    },
    {
      reason: "from a regional host to another co.uk domain",
      endpoint: "https://us.a.co.uk",
      target: "us.evil.co.uk",
      ok: false,
    },
    { reason: "the public suffix itself", endpoint: "https://a.co.uk", target: "co.uk", ok: false },
    {
      reason: "another site on a private suffix",
      endpoint: "https://team.github.io",
      target: "evil.github.io",
      ok: false,
    },
    {
      reason: "the private suffix itself",
      endpoint: "https://team.github.io",
      target: "github.io",
      ok: false,
    },
    {
      reason: "a subdomain of the same private-suffix site",
      endpoint: "https://team.github.io",
      target: "eu.team.github.io",
      ok: true,
    },
    {
      reason: "same loopback IP, any port",
      endpoint: "http://127.0.0.1:9293",
      target: "127.0.0.1",
      ok: true,
    },
    { reason: "another loopback IP", endpoint: "http://127.0.0.1:9293", target: "127.0.0.2", ok: false },
    {
      reason: "localhost to 127.0.0.1 is another host",
      endpoint: "http://localhost:9293",
      target: "127.0.0.1",
      ok: false,
    },
    { reason: "localhost to itself", endpoint: "http://localhost:9293", target: "localhost", ok: true },
    { reason: "IPv6 loopback to itself", endpoint: "http://[::1]:9293", target: "[::1]", ok: true },
    { reason: "public IP to another IP", endpoint: "https://203.0.113.5", target: "203.0.113.6", ok: false },
    { reason: "IP to a name", endpoint: "https://203.0.113.5", target: "example.com", ok: false },
    { reason: "a single-label host allows only itself", endpoint: "https://svc", target: "other", ok: false },
  ])("$reason: $endpoint -> $target", ({ endpoint, target, ok }) => {
    const problem = redirectHostProblem(target, redirectScope(new URL(endpoint)));
    expect(problem === undefined).toBe(ok);
  });

  it.each([
    { reason: "inside both", allowlist: ["eu.example.com"], target: "eu.example.com", ok: true },
    {
      reason: "a subdomain of an entry",
      allowlist: ["eu.example.com"],
      target: "a.eu.example.com",
      ok: true,
    },
    {
      reason: "in the domain, not in the list",
      allowlist: ["eu.example.com"],
      target: "us-4.example.com",
      ok: false,
    },
    {
      reason: "the list never widens the domain",
      allowlist: ["attacker.net"],
      target: "attacker.net",
      ok: false,
    },
  ])("serviceDomain narrows: $reason", ({ allowlist, target, ok }) => {
    const scope = redirectScope(new URL("https://us-3.example.com"), allowlist);
    expect(redirectHostProblem(target, scope) === undefined).toBe(ok);
  });

  it("names the host and the domain it is outside of", () => {
    const scope = redirectScope(new URL("https://a.co.uk"));
    expect(redirectHostProblem("evil.co.uk", scope)).toBe(
      "host evil.co.uk, outside the endpoint's registrable domain a.co.uk",
    );
    expect(redirectHostProblem("127.0.0.2", redirectScope(new URL("http://127.0.0.1:1")))).toBe(
      "host 127.0.0.2: the endpoint's host 127.0.0.1 allows only itself",
    );
  });
});

describe("isHostInDomain", () => {
  it.each([
    { reason: "sibling region", host: "us-4.example.com", domain: ["example.com"], ok: true },
    { reason: "lookalike suffix", host: "evilexample.com", domain: ["example.com"], ok: false },
    { reason: "same IP", host: "127.0.0.1", domain: ["127.0.0.1"], ok: true },
    { reason: "IP never matches as a suffix", host: "10.0.0.1", domain: ["0.0.1"], ok: false },
    { reason: "allow-list of several", host: "eu.other.org", domain: ["example.com", "other.org"], ok: true },
  ])("$reason", ({ host, domain, ok }) => {
    expect(isHostInDomain(host, domain)).toBe(ok);
  });
});

describe("resolveRedirect", () => {
  const current = new URL("http://127.0.0.1:9293/api/deployments");
  const loopback = redirectScope(current);
  it("resolves an absolute location on the same host, another port", () => {
    expect(resolveRedirect("POST", current, "http://127.0.0.1:9292/api/deployments", loopback).href).toBe(
      "http://127.0.0.1:9292/api/deployments",
    );
  });
  it("resolves a relative location", () => {
    expect(resolveRedirect("GET", current, "/api/x", loopback).href).toBe("http://127.0.0.1:9293/api/x");
  });
  it.each([
    { reason: "foreign host", location: "http://evil.test/api/deployments", message: /evil\.test/ },
    { reason: "other scheme", location: "ftp://127.0.0.1/x", message: /scheme ftp:/ },
  ])("refuses a $reason, naming it", ({ location, message }) => {
    let error: unknown;
    try {
      resolveRedirect("POST", current, location, loopback);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("SVC_REDIRECT_REFUSED");
    expect((error as ApiError).message).toMatch(message);
  });
  it.each([
    { reason: "the allowed host and port", allowed: "127.0.0.1:9293,127.0.0.1:9292", ok: true },
    { reason: "another port of an allowed host", allowed: "127.0.0.1:9293", ok: false },
    { reason: "the host without a port", allowed: "127.0.0.1", ok: true },
  ])("allowedEndpoints narrows the scope, ports included: $reason", ({ allowed, ok }) => {
    const scope = redirectScope(current, undefined, EndpointAllowlist.parse(allowed));
    const follow = () => resolveRedirect("POST", current, "http://127.0.0.1:9292/api/deployments", scope);
    if (ok) expect(follow().port).toBe("9292");
    else
      expect(follow).toThrow(
        expect.objectContaining({
          code: "SVC_ENDPOINT_NOT_ALLOWED",
          message: `POST /api/deployments: redirect refused: host 127.0.0.1:9292 is outside the operator's --allowed-endpoints (${allowed})`,
        }),
      );
  });
  it("refuses an https -> http downgrade", () => {
    const https = new URL("https://us-3.example.com/api");
    expect(() => resolveRedirect("GET", https, "http://us-4.example.com/api", redirectScope(https))).toThrow(
      /downgrade/,
    );
  });
});
