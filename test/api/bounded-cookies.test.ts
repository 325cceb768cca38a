import { afterEach, describe, expect, it } from "vitest";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import { type LocalServer, startLocalServer } from "./local-server.ts";

/**
 * A service that sets 100 new cookies on every answer: the session's cookie jar stays within its
 * cap (50 cookies, docs/api-client.md), so the `Cookie` header every call sends stops growing,
 * and the session cookie is never pushed out.
 */

const CALLS = 300;
const COOKIES_PER_ANSWER = 100;
const CAP = 50;
const SESSION = "_session_id=flood-session-cookie-7c1e";

let server: LocalServer | undefined;
let api: ServiceApi | undefined;
afterEach(async () => {
  await api?.close();
  await server?.close();
  api = server = undefined;
});

/** Every answer sets 100 cookies never seen before; a call without the session cookie is refused. */
async function startCookieFlood(): Promise<{ server: LocalServer; logins: () => number }> {
  let set = 0;
  let logins = 0;
  const flood = () => Array.from({ length: COOKIES_PER_ANSWER }, () => `f${set++}=v; Path=/`);
  const s = await startLocalServer(
    (req, res) => {
      if (req.url === "/api/session") {
        logins++;
        res.writeHead(204, { "set-cookie": [`${SESSION}; Path=/; Secure; HttpOnly`, ...flood()] });
        res.end();
        return;
      }
      if (!(req.headers.cookie ?? "").split("; ").includes(SESSION)) {
        res.writeHead(403);
        res.end("Session cookie is expired or invalid");
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "set-cookie": flood() });
      res.end("[]");
    },
    undefined,
    // Room for what an unbounded jar would send, so that the test sees it rather than a 431.
    { maxHeaderSize: 4 * 1024 * 1024 },
  );
  return { server: s, logins: () => logins };
}

describe("a service that sets 100 new cookies per answer", () => {
  it(`after ${CALLS} calls the jar sends at most ${CAP} cookies, the session's among them`, async () => {
    const flood = await startCookieFlood();
    server = flood.server;
    api = createServiceApi({
      endpoint: server.url,
      accountId: 1,
      auth: { type: "session", email: "ops@example.com", password: "flood-password" },
      rateLimit: false,
    });
    for (let i = 0; i < CALLS; i++) expect(await api.deployments.index()).toEqual([]);

    const calls = server.requests.filter((r) => r.path.startsWith("/api/deployments"));
    expect(calls).toHaveLength(CALLS);
    const sent = calls.map((r) => String(r.headers.cookie));
    const counts = sent.map((header) => header.split("; ").length);
    const bytes = sent.map((header) => Buffer.byteLength(header));
    console.log(
      `${CALLS} calls, ${COOKIES_PER_ANSWER} new cookies per answer: at most ${Math.max(...counts)} ` +
        `cookies and ${Math.max(...bytes)} bytes in a Cookie header (last: ${counts.at(-1)}, ${bytes.at(-1)} bytes)`,
    );
    expect(Math.max(...counts)).toBeLessThanOrEqual(CAP);
    // 50 cookies of at most 12 bytes each, and their separators.
    expect(Math.max(...bytes)).toBeLessThan(CAP * 14 + SESSION.length);
    // The session held: every call carried its cookie, and one login served them all.
    for (const header of sent) expect(header.split("; ")).toContain(SESSION);
    expect(flood.logins()).toBe(1);
  });
});
