import type { LookupFunction } from "node:net";
import { generate } from "selfsigned";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApiClientOptions } from "../../src/api/client.ts";
import { createServiceApi, EndpointAllowlist, type ServiceApi } from "../../src/api/index.ts";
import { rejection } from "./helpers.ts";
import { grantToken, type LocalServer, startLocalServer } from "./local-server.ts";

/**
 * Regional redirects between real TLS servers under real names (resolved to 127.0.0.1 by the
 * test's dispatcher): a redirect within the endpoint's registrable domain is followed with the
 * credentials; one to another domain under the same public suffix (co.uk, github.io) is refused
 * before anything is sent there.
 */

const NAMES = [
  "us-3.svc.co.uk",
  "us-4.svc.co.uk",
  "a.co.uk",
  "evil.co.uk",
  "team.github.io",
  "evil.github.io",
];

let regional: LocalServer;
let target: LocalServer;
let dispatcher: Agent;
/** Where the regional server sends every call (set per test). */
let redirectTo = "";
let api: ServiceApi | undefined;

/** What the account's host (us-4.svc.co.uk) sets at login: its own, its domain's, and others'. */
const TARGET_COOKIES = [
  "_session_id=regional-session-1; Domain=us-4.svc.co.uk; Path=/; Secure; HttpOnly",
  "svc_global_session=global-1; Domain=.svc.co.uk; Path=/; HttpOnly",
  "sibling=1; Domain=us-3.svc.co.uk",
  "foreign=1; Domain=evil.co.uk",
  "suffix=1; Domain=co.uk",
];

beforeAll(async () => {
  const now = Date.now();
  const pems = await generate([{ name: "commonName", value: "svc-redirect-test" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 24 * 3600_000),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: NAMES.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  const tls = { cert: pems.cert, key: pems.private };
  regional = await startLocalServer((req, res) => {
    res.writeHead(302, { location: `${redirectTo}${req.url}` });
    res.end();
  }, tls);
  target = await startLocalServer((req, res) => {
    if (req.url === "/api/oauth2/") return grantToken(res);
    if (req.url === "/api/session") {
      res.writeHead(204, { "set-cookie": TARGET_COOKIES });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("[]");
  }, tls);
  // Every name resolves to this machine; TLS still checks the name against the certificate.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: "127.0.0.1", family: 4 },
      ]);
    else callback(null, "127.0.0.1", 4);
  };
  dispatcher = new Agent({ connect: { ca: pems.cert, lookup } });
});
afterEach(async () => {
  await api?.close();
  api = undefined;
  regional.requests.length = 0;
  target.requests.length = 0;
});
afterAll(async () => {
  await dispatcher.close();
  await regional.close();
  await target.close();
});

function client(
  endpointHost: string,
  allowedEndpoints?: EndpointAllowlist,
  auth: ApiClientOptions["auth"] = { type: "oauth", refreshToken: "redirect-refresh-token" },
): ServiceApi {
  api = createServiceApi({
    endpoint: `https://${endpointHost}:${regional.port}`,
    accountId: 1,
    auth,
    dispatcher,
    rateLimit: false,
    allowedEndpoints,
  });
  return api;
}

const hostsSeen = (server: LocalServer) => server.requests.map((r) => String(r.headers.host).split(":")[0]);

describe("regional redirects between TLS hosts", () => {
  it("follows a redirect to a sibling host of the same registrable domain, with the credentials", async () => {
    redirectTo = `https://us-4.svc.co.uk:${target.port}`;
    const c = client("us-3.svc.co.uk");
    expect(await c.deployments.index()).toEqual([]);
    expect(c.client.currentOrigin).toBe(`https://us-4.svc.co.uk:${target.port}`);
    // The grant was re-posted at the account's host, and the call carried the token there.
    expect(target.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "POST /api/oauth2/",
      "GET /api/deployments",
    ]);
    expect(target.requests[1]!.headers.authorization).toBe("Bearer local-access-token-0001");
  });

  it("keeps the session cookies the account's host sets for itself and its domain, no others", async () => {
    redirectTo = `https://us-4.svc.co.uk:${target.port}`;
    const c = client("us-3.svc.co.uk", undefined, {
      type: "session",
      email: "ops@svc.co.uk",
      password: "pw",
    });
    expect(await c.deployments.index()).toEqual([]);
    expect(target.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "POST /api/session",
      "GET /api/deployments",
    ]);
    expect(target.requests[1]!.headers.cookie).toBe(
      "_session_id=regional-session-1; svc_global_session=global-1",
    );
  });

  it.each([
    {
      reason: "another domain under the public suffix co.uk",
      endpoint: "a.co.uk",
      to: "evil.co.uk",
      message: "redirect refused: host evil.co.uk, outside the endpoint's registrable domain a.co.uk",
    },
    {
      reason: "another site under the private suffix github.io",
      endpoint: "team.github.io",
      to: "evil.github.io",
      message:
        "redirect refused: host evil.github.io, outside the endpoint's registrable domain team.github.io",
    },
  ])("refuses $reason before sending anything there", async ({ endpoint, to, message }) => {
    redirectTo = `https://${to}:${target.port}`;
    const error = await rejection(client(endpoint).deployments.index());
    expect(error).toMatchObject({ code: "SVC_REDIRECT_REFUSED", kind: "invalid" });
    expect(error.message).toContain(message);
    expect(hostsSeen(regional)).toEqual([endpoint]);
    expect(target.requests).toEqual([]);
  });

  it("refuses a sibling host the allowed endpoints do not list, before sending anything there", async () => {
    redirectTo = `https://us-4.svc.co.uk:${target.port}`;
    const error = await rejection(
      client("us-3.svc.co.uk", EndpointAllowlist.parse("us-3.svc.co.uk")).deployments.index(),
    );
    expect(error).toMatchObject({ code: "SVC_ENDPOINT_NOT_ALLOWED", kind: "invalid" });
    expect(error.message).toContain(
      `redirect refused: host us-4.svc.co.uk:${target.port} is outside the operator's --allowed-endpoints (us-3.svc.co.uk)`,
    );
    expect(hostsSeen(regional)).toEqual(["us-3.svc.co.uk"]);
    expect(target.requests).toEqual([]);
  });

  it("refuses an https -> http downgrade within the domain", async () => {
    redirectTo = `http://us-4.svc.co.uk:${target.port}`;
    const error = await rejection(client("us-3.svc.co.uk").deployments.index());
    expect(error).toMatchObject({ code: "SVC_REDIRECT_REFUSED" });
    expect(error.message).toContain("an https -> http downgrade to us-4.svc.co.uk");
    expect(target.requests).toEqual([]);
  });
});
