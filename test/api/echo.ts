import type { IncomingMessage, ServerResponse } from "node:http";
import { grantToken, type LocalServer, startLocalServer } from "./local-server.ts";

/**
 * A service endpoint behind something that echoes the request into its error answers, as a
 * proxy, a WAF or a debug endpoint does: headers, the raw form body and the decoded form as JSON.
 * Credentials then come back raw, URL-encoded and JSON-escaped.
 */

/** Credentials with the characters each encoding renders differently. */
export const ECHO_CREDENTIALS = {
  refreshToken: "rt+/echo=Refresh-Token-0123456789==",
  email: "ops+svc@example.com",
  password: 'p@ss word/"é&=+42',
  accessToken: "at+/echo-Access-Token-9876543210",
  sessionCookie: "echo-session-cookie-5f3a9c2e71",
};

/** Every rendering of a value an echo produces, to look for in output (independent of the client's list). */
export function renderings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    json,
    json.replaceAll("/", "\\/"),
  ];
}

/** The renderings of `values` found in `text` (case-insensitive), empty when none. */
export function leaks(text: string, values: string[]): string[] {
  const lower = text.toLowerCase();
  return values.flatMap((v) => renderings(v)).filter((r) => lower.includes(r.toLowerCase()));
}

export type EchoAt = "grant" | "login" | "call";

/** An echoing endpoint, and every echo it wrote (to prove the credentials really came back). */
export interface EchoServer extends LocalServer {
  echoes: string[];
}

function echo(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  status: number,
  echoes: string[],
): void {
  const form = Object.fromEntries(new URLSearchParams(body));
  const text =
    `Bad request: ${req.method} ${req.url} authorization=${req.headers.authorization ?? ""} ` +
    `cookie=${req.headers.cookie ?? ""} body=${body} json=${JSON.stringify(form)} ` +
    `headers=${JSON.stringify(req.headers)}`;
  echoes.push(text);
  res.writeHead(status, { "content-type": "text/plain" });
  res.end(text);
}

/**
 * An echoing endpoint: at `grant` or `login` the credentials call itself is echoed; at `call` the
 * token grant and the login succeed (handing out ECHO_CREDENTIALS' access token and cookie) and
 * every other call but the Account's credentials check is echoed (`callStatus`, 400 by default).
 * Every answer sets `cookiesPerAnswer` new cookies besides (none by default).
 */
export async function startEchoServer(
  at: EchoAt,
  callStatus = 400,
  cookiesPerAnswer = 0,
): Promise<EchoServer> {
  const echoes: string[] = [];
  let cookiesSet = 0;
  const server = await startLocalServer((req, res, body) => {
    const others = Array.from({ length: cookiesPerAnswer }, () => {
      const n = cookiesSet++;
      return `tracker${n}=tracker-value-${n}-0123456789; Path=/`;
    });
    if (others.length > 0) res.setHeader("set-cookie", others);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/api/oauth2/") {
      if (at === "grant") return echo(req, res, body, 400, echoes);
      return grantToken(res, ECHO_CREDENTIALS.accessToken);
    }
    if (path === "/api/session") {
      if (at === "login") return echo(req, res, body, 400, echoes);
      const session = `_session_id=${ECHO_CREDENTIALS.sessionCookie}; HttpOnly`;
      res.writeHead(204, { "set-cookie": [session, ...others] });
      res.end();
      return;
    }
    if (req.method === "GET" && path === "/api/deployments" && req.url?.includes("credentials-check")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[]");
      return;
    }
    echo(req, res, body, callStatus, echoes);
  });
  return Object.assign(server, { echoes });
}
