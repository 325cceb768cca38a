import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "./clock.ts";
import { SimError, sessionExpired } from "./errors.ts";

/** The session cookie and the access token both live this long (spec 5.1, real OAuth answer). */
export const SESSION_TTL_SECONDS = 2 * 60 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 7200;
export const SESSION_COOKIE = "_session_id";
export const GLOBAL_COOKIE = "svc_global_session";

export interface Principal {
  userId: string;
  accountId: string;
  via: "session" | "oauth";
}

interface Session {
  userId: string;
  accountId: string;
  /** Last use: a session lives 2 hours of non-use. */
  lastUsedMs: number;
}

interface AccessToken {
  userId: string;
  accountId: string;
  expiresMs: number;
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function authenticationError(message: string): SimError {
  return new SimError(401, "AuthenticationError", message);
}

/**
 * Sessions and OAuth access tokens, on the injected clock. State is kept outside the store,
 * so `/__sim/reset` does not log clients out.
 */
export class Authenticator {
  private readonly sessions = new Map<string, Session>();
  private readonly globalIds = new Map<string, string>();
  private readonly tokens = new Map<string, AccessToken>();
  private readonly clock: Clock;
  private readonly cookieDomain: string | undefined;

  constructor(clock: Clock, options: { cookieDomain?: string } = {}) {
    this.clock = clock;
    this.cookieDomain = options.cookieDomain;
  }

  /** Opens a session; answers the two Set-Cookie values. */
  login(userId: string, accountId: string): string[] {
    this.sweepSometimes();
    const id = randomBytes(24).toString("hex");
    const globalId = randomBytes(24).toString("hex");
    this.sessions.set(id, { userId, accountId, lastUsedMs: this.clock.now() });
    this.globalIds.set(globalId, id);
    const domain = this.cookieDomain ? `; Domain=${this.cookieDomain}` : "";
    return [
      `${GLOBAL_COOKIE}=${globalId}; Path=/${domain}; HttpOnly`,
      `${SESSION_COOKIE}=${id}; Path=/; Secure; HttpOnly`,
    ];
  }

  issueAccessToken(userId: string, accountId: string): { token: string; expiresIn: number } {
    this.sweepSometimes();
    const token = randomBytes(32).toString("hex");
    this.tokens.set(token, {
      userId,
      accountId,
      expiresMs: this.clock.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
    });
    return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }

  private issued = 0;

  /** Forgets expired sessions and tokens now and then, so a long run does not grow without bound. */
  private sweepSometimes(): void {
    this.issued += 1;
    if (this.issued % 1000 !== 0) return;
    const now = this.clock.now();
    for (const [id, session] of this.sessions) {
      if (now - session.lastUsedMs >= SESSION_TTL_SECONDS * 1000) this.sessions.delete(id);
    }
    for (const [globalId, id] of this.globalIds) if (!this.sessions.has(id)) this.globalIds.delete(globalId);
    for (const [token, entry] of this.tokens) if (now >= entry.expiresMs) this.tokens.delete(token);
  }

  /** Live sessions and access tokens (for tests of the sweep). */
  get size(): { sessions: number; tokens: number } {
    return { sessions: this.sessions.size, tokens: this.tokens.size };
  }

  /**
   * Who is calling: a bearer token (401 when unknown or expired) or the session cookies
   * (403 `Session cookie is expired or invalid` when missing, unknown or idle for 2 hours).
   */
  authenticate(headers: IncomingHttpHeaders): Principal {
    const authorization = headers.authorization;
    if (authorization !== undefined) {
      const m = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!m) throw authenticationError("Authorization header must be 'Bearer <access token>'");
      const token = this.tokens.get(m[1]!);
      if (!token) throw authenticationError("access token is invalid");
      if (this.clock.now() >= token.expiresMs) {
        this.tokens.delete(m[1]!);
        throw authenticationError("access token is expired");
      }
      return { userId: token.userId, accountId: token.accountId, via: "oauth" };
    }
    const cookies = parseCookies(headers.cookie);
    let id: string | undefined = cookies[SESSION_COOKIE];
    const globalId = cookies[GLOBAL_COOKIE];
    if (id === undefined && globalId !== undefined) id = this.globalIds.get(globalId);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session || id === undefined) throw sessionExpired();
    const now = this.clock.now();
    if (now - session.lastUsedMs >= SESSION_TTL_SECONDS * 1000) {
      this.sessions.delete(id);
      throw sessionExpired();
    }
    session.lastUsedMs = now;
    return { userId: session.userId, accountId: session.accountId, via: "session" };
  }
}
