import { describe, expect, it } from "vitest";
import { ENDPOINT_RULE, endpointProblem, isLoopbackHost } from "./endpoint.ts";

describe("endpointProblem: credentials only over TLS, or to this machine", () => {
  it.each([
    { reason: "https to any host", endpoint: "https://us-3.example.com", ok: true },
    { reason: "https with a port and a path", endpoint: "https://us-3.example.com:8443/x", ok: true },
    { reason: "https to an IP", endpoint: "https://203.0.113.5", ok: true },
    { reason: "http to 127.0.0.1 (the simulator)", endpoint: "http://127.0.0.1:9292", ok: true },
    { reason: "http anywhere in 127.0.0.0/8", endpoint: "http://127.10.20.30:9292", ok: true },
    { reason: "http to localhost", endpoint: "http://localhost:9292", ok: true },
    { reason: "http to LOCALHOST", endpoint: "http://LOCALHOST:9292", ok: true },
    { reason: "http to ::1", endpoint: "http://[::1]:9292", ok: true },
    { reason: "http to a remote name", endpoint: "http://us-3.example.com", ok: false },
    { reason: "http to a remote IP", endpoint: "http://203.0.113.5", ok: false },
    { reason: "http to a private IP", endpoint: "http://10.0.0.1", ok: false },
    { reason: "http to 0.0.0.0", endpoint: "http://0.0.0.0:9292", ok: false },
    { reason: "http to a name starting with 127.", endpoint: "http://127.0.0.1.evil.test", ok: false },
    { reason: "http to a subdomain of localhost", endpoint: "http://evil.localhost", ok: false },
    { reason: "http with loopback as user info", endpoint: "http://127.0.0.1@evil.test", ok: false },
    { reason: "http to an IPv4-mapped IPv6 address", endpoint: "http://[::ffff:127.0.0.1]", ok: false },
    { reason: "another scheme", endpoint: "ftp://127.0.0.1", ok: false },
    { reason: "not a URL", endpoint: "us-3.example.com", ok: false },
  ])("$reason: $endpoint", ({ endpoint, ok }) => {
    const problem = endpointProblem(endpoint);
    if (ok) expect(problem).toBeUndefined();
    else expect(problem).toBe(`${ENDPOINT_RULE}, got "${endpoint}"`);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    { host: "127.0.0.1", ok: true },
    { host: "127.255.255.254", ok: true },
    { host: "localhost.", ok: true },
    { host: "[::1]", ok: true },
    { host: "128.0.0.1", ok: false },
    { host: "127.example.com", ok: false },
  ])("$host: $ok", ({ host, ok }) => {
    expect(isLoopbackHost(host)).toBe(ok);
  });
});
