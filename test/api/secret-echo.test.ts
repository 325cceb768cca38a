import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiClientOptions, CallEvent } from "../../src/api/client.ts";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import type { EchoServer } from "./echo.ts";
import { ECHO_CREDENTIALS as C, type EchoAt, leaks, startEchoServer } from "./echo.ts";
import { rejection } from "./helpers.ts";

/**
 * An endpoint that echoes the request in its error answers: the client's errors, its log lines
 * and its call events carry no rendering of a credential, for both credential kinds.
 */

const SECRETS = [C.refreshToken, C.email, C.password, C.accessToken, C.sessionCookie];

let server: EchoServer | undefined;
let api: ServiceApi | undefined;
afterEach(async () => {
  await api?.close();
  await server?.close();
  api = server = undefined;
});

async function echoing(at: EchoAt, auth: ApiClientOptions["auth"]) {
  server = await startEchoServer(at);
  const logs: string[] = [];
  const events: CallEvent[] = [];
  api = createServiceApi({
    endpoint: server.url,
    accountId: 1,
    auth,
    rateLimit: false,
    logger: pino(
      { level: "trace" },
      new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk));
          done();
        },
      }),
    ),
    onCall: (e) => events.push(e),
  });
  return { api, logs, events };
}

/** Everything of an error a log line, a condition or an Event could show. */
function exposed(error: Error & Record<string, unknown>): string {
  const parts: unknown[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack, { ...e });
  return JSON.stringify(parts);
}

const oauth = { type: "oauth", refreshToken: C.refreshToken } as const;
const session = { type: "session", email: C.email, password: C.password } as const;

describe("an endpoint that echoes the request", () => {
  it.each([
    { reason: "the token grant (refresh token)", at: "grant", auth: oauth, sent: C.refreshToken },
    { reason: "a call with the access token", at: "call", auth: oauth, sent: C.accessToken },
    { reason: "the session login (email, password)", at: "login", auth: session, sent: C.password },
    { reason: "a call with the session cookie", at: "call", auth: session, sent: C.sessionCookie },
  ] as const)(
    "$reason: no rendering of a credential in the error, the logs or the call events",
    async ({ at, auth, sent }) => {
      const t = await echoing(at, auth);
      const error = await rejection(t.api.deployments.create({ name: "web", description: "x" }));
      expect(error).toMatchObject({ kind: "invalid", status: 400 });
      // The echo reached the message, with the credentials taken out.
      expect(error.message).toContain("Bad request");
      expect(error.message).toContain("[redacted]");
      // The server really did echo the credential, in more than one rendering.
      expect(leaks(server!.echoes.join("\n"), [sent]).length).toBeGreaterThan(1);
      expect(leaks(exposed(error), SECRETS)).toEqual([]);
      expect(leaks(t.logs.join("\n"), SECRETS)).toEqual([]);
      expect(leaks(JSON.stringify(t.events), SECRETS)).toEqual([]);
    },
  );

  it("a service that sets 40 other cookies per answer: no session cookie in an error echoing the Cookie header", async () => {
    server = await startEchoServer("call", 400, 40);
    api = createServiceApi({ endpoint: server.url, accountId: 1, auth: session, rateLimit: false });
    const error = await rejection(api.deployments.create({ name: "web", description: "x" }));
    expect(error).toMatchObject({ kind: "invalid", status: 400 });
    // The echo carried the session cookie behind 40 others, raw and JSON-escaped.
    const echoed = server.echoes.at(-1)!;
    expect(echoed).toContain(`cookie=_session_id=${C.sessionCookie}; tracker0=`);
    expect(echoed.match(/; tracker\d+=/g)?.length).toBeGreaterThanOrEqual(40);
    expect(leaks(exposed(error), SECRETS)).toEqual([]);
    expect(exposed(error)).not.toContain("tracker-value-");
  });

  it("an echo answered 200 to an index is not JSON: described, scrubbed", async () => {
    server = await startEchoServer("call", 200);
    api = createServiceApi({ endpoint: server.url, accountId: 1, auth: session, rateLimit: false });
    const error = await rejection(api.networks.index());
    expect(error).toMatchObject({ code: "SVC_BAD_RESPONSE" });
    expect(error.message).toContain("the body is not JSON (text/plain, ");
    expect(error.message).toContain("[redacted]");
    expect(leaks(exposed(error), SECRETS)).toEqual([]);
  });
});
