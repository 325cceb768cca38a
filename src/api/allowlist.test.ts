import { describe, expect, it } from "vitest";
import { ALLOWED_ENDPOINTS_RULE, EndpointAllowlist } from "./allowlist.ts";

describe("EndpointAllowlist.allows", () => {
  it.each([
    {
      reason: "a subdomain of a wildcard",
      list: "*.example-cloud.com",
      url: "https://us-3.example-cloud.com",
      ok: true,
    },
    {
      reason: "a deeper subdomain of a wildcard",
      list: "*.example-cloud.com",
      url: "https://a.b.example-cloud.com/api",
      ok: true,
    },
    {
      reason: "the wildcard's domain itself is not its subdomain",
      list: "*.example-cloud.com",
      url: "https://example-cloud.com",
      ok: false,
    },
    {
      reason: "a lookalike suffix",
      list: "*.example-cloud.com",
      url: "https://evilexample-cloud.com",
      ok: false,
    },
    {
      reason: "the domain inside another name",
      list: "*.example-cloud.com",
      url: "https://example-cloud.com.evil.net",
      ok: false,
    },
    { reason: "an exact host", list: "api.example.com", url: "https://api.example.com", ok: true },
    {
      reason: "an exact host is not a wildcard",
      list: "api.example.com",
      url: "https://eu.api.example.com",
      ok: false,
    },
    {
      reason: "case and a trailing dot do not matter",
      list: "API.Example.com",
      url: "https://api.example.com./x",
      ok: true,
    },
    {
      reason: "no port in the pattern: any port",
      list: "api.example.com",
      url: "https://api.example.com:8443",
      ok: true,
    },
    {
      reason: "a port in the pattern: that port",
      list: "api.example.com:8443",
      url: "https://api.example.com:8443",
      ok: true,
    },
    {
      reason: "a port in the pattern: not another",
      list: "api.example.com:8443",
      url: "https://api.example.com",
      ok: false,
    },
    {
      reason: "https without a port is 443",
      list: "api.example.com:443",
      url: "https://api.example.com/api",
      ok: true,
    },
    {
      reason: "a wildcard with a port",
      list: "*.example-cloud.com:443",
      url: "https://us-3.example-cloud.com:444",
      ok: false,
    },
    { reason: "an IPv4 address and port", list: "127.0.0.1:9292", url: "http://127.0.0.1:9292", ok: true },
    {
      reason: "another port of the same address",
      list: "127.0.0.1:9292",
      url: "http://127.0.0.1:9293",
      ok: false,
    },
    { reason: "an IPv6 address in brackets", list: "[::1]", url: "http://[::1]:9292", ok: true },
    {
      reason: "an IPv6 address written another way",
      list: "[0:0:0:0:0:0:0:1]:9292",
      url: "http://[::1]:9292",
      ok: true,
    },
    {
      reason: "an IP address never matches a wildcard",
      list: "*.example-cloud.com",
      url: "http://127.0.0.1",
      ok: false,
    },
    {
      reason: "any entry of several",
      list: "a.example.com, *.example-cloud.com",
      url: "https://eu.example-cloud.com",
      ok: true,
    },
  ])("$reason", ({ list, url, ok }) => {
    expect(EndpointAllowlist.parse(list).allows(new URL(url))).toBe(ok);
  });

  it("says which host and port are outside, and the list", () => {
    const list = EndpointAllowlist.parse("*.example-cloud.com,api.example.com:8443");
    expect(list.problem(new URL("https://evil.example.net/api"))).toBe(
      "host evil.example.net:443 is outside the operator's --allowed-endpoints (*.example-cloud.com,api.example.com:8443)",
    );
    expect(list.problem(new URL("https://us-3.example-cloud.com"))).toBeUndefined();
  });
});

describe("EndpointAllowlist.parse", () => {
  it.each([
    {
      reason: "an empty entry",
      text: "a.example.com,,b.example.com",
      message: "entry 2 (empty): an empty entry",
    },
    { reason: "a trailing comma", text: "a.example.com,", message: "entry 2 (empty)" },
    {
      reason: "a scheme",
      text: "https://a.example.com",
      message: 'entry 1 "https://a.example.com": not a host',
    },
    { reason: "a path", text: "a.example.com/api", message: "not a host" },
    { reason: "a user", text: "me@a.example.com", message: "not a host" },
    { reason: "a bare wildcard", text: "*", message: "a wildcard only as the whole first label" },
    {
      reason: "a wildcard inside a label",
      text: "us-*.example.com",
      message: "a wildcard only as the whole first label",
    },
    {
      reason: "a wildcard further in",
      text: "a.*.example.com",
      message: "a wildcard only as the whole first label",
    },
    {
      reason: "a wildcard over a public suffix",
      text: "*.com",
      message: "a wildcard over the public suffix com",
    },
    {
      reason: "a wildcard over a multi-label public suffix",
      text: "*.co.uk",
      message: "public suffix co.uk",
    },
    {
      reason: "a wildcard over a private suffix (anyone registers there)",
      text: "*.github.io",
      message: "public suffix github.io",
    },
    {
      reason: "a wildcard over an IP address",
      text: "*.127.0.0.1",
      message: "no wildcard over an IP address",
    },
    {
      reason: "a port out of range",
      text: "a.example.com:70000",
      message: "a port must be a number from 1 to 65535",
    },
    { reason: "port zero", text: "a.example.com:0", message: "a port must be a number" },
    { reason: "an empty port", text: "a.example.com:", message: "a port must be a number" },
    { reason: "an IPv6 address without brackets", text: "::1", message: "write an IPv6 address in brackets" },
    {
      reason: "brackets around something else",
      text: "[a.example.com]",
      message: "not an IPv6 address in brackets",
    },
    { reason: "an underscore", text: "a_b.example.com", message: "not a host name" },
    { reason: "a label starting with a hyphen", text: "-a.example.com", message: "not a host name" },
  ])("refuses $reason, naming the entry and the rule", ({ text, message }) => {
    let error: unknown;
    try {
      EndpointAllowlist.parse(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(ALLOWED_ENDPOINTS_RULE);
  });

  it("keeps the patterns as written, lowercased, in order", () => {
    const list = EndpointAllowlist.parse(" *.Example-Cloud.com , 127.0.0.1:9292,[::1] ");
    expect(list.patterns).toEqual([
      { text: "*.example-cloud.com", host: "example-cloud.com", wildcard: true, port: undefined },
      { text: "127.0.0.1:9292", host: "127.0.0.1", wildcard: false, port: 9292 },
      { text: "[::1]", host: "::1", wildcard: false, port: undefined },
    ]);
    expect(String(list)).toBe("*.example-cloud.com,127.0.0.1:9292,[::1]");
  });
});
