import * as z from "zod";
import { CookieJar } from "./cookies.ts";
import { ApiError, ApiErrorCodes } from "./errors.ts";
import type { WireResponse } from "./transport.ts";

/** Credentials are values passed in by the caller (read from a Secret); they are never logged. */
export type AuthOptions =
  | {
      type: "oauth";
      refreshToken: string;
      /** Token endpoint path on the account's host. Default `/api/oauth2/`. */
      tokenPath?: string;
      /** Send `account_id` in the grant (the service then answers 301 when the account lives elsewhere). */
      sendAccountId?: boolean;
    }
  | { type: "session"; email: string; password: string };

/** Where an authenticator reports a credential it obtained (access token, session cookie), to be scrubbed from output. */
export type HoldSecret = (value: string) => void;

/** The values an Account's credentials consist of (scrubbed from every error the client throws). */
export function credentialValues(options: AuthOptions): string[] {
  return options.type === "oauth" ? [options.refreshToken] : [options.email, options.password];
}

/** A call the authenticator makes without authentication (login, token grant). */
export type UnauthenticatedSend = (request: {
  method: "POST";
  path: string;
  form: Record<string, string>;
}) => Promise<WireResponse>;

/**
 * How the client authenticates. `authorize` adds the credential headers (logging in or
 * refreshing first when needed, one renewal in flight at a time) and returns an opaque
 * generation; after a rejected call, `shouldRenew` says whether it was an expiry and
 * `renew(generation)` renews unless another caller already did since that generation.
 */
export interface Authenticator {
  authorize(headers: Record<string, string>): number | Promise<number>;
  /** Takes what an answer from `host` sets (cookies). */
  observe(response: WireResponse, host: string): void;
  shouldRenew(status: number, body: string): boolean;
  renew(generation: number): Promise<void>;
}

const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
  token_type: z.string(),
});

/** OAuth 2.0 refresh-token grant; the access token is renewed at half its lifetime and on a 401. */
export class OAuthAuthenticator implements Authenticator {
  private token: { value: string; refreshAt: number; expiresAt: number } | undefined;
  private generation = 0;
  private inflight: Promise<void> | undefined;
  private readonly refreshToken: string;
  private readonly tokenPath: string;
  private readonly accountId: string | undefined;
  private readonly send: UnauthenticatedSend;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly hold: HoldSecret;

  constructor(
    options: Extract<AuthOptions, { type: "oauth" }>,
    accountId: string,
    send: UnauthenticatedSend,
    now: () => number,
    warn: (message: string) => void,
    hold: HoldSecret = () => {},
  ) {
    this.refreshToken = options.refreshToken;
    this.tokenPath = options.tokenPath ?? "/api/oauth2/";
    this.accountId = options.sendAccountId ? accountId : undefined;
    this.send = send;
    this.now = now;
    this.warn = warn;
    this.hold = hold;
  }

  authorize(headers: Record<string, string>): number | Promise<number> {
    const token = this.token;
    if (token && this.now() < token.refreshAt) {
      headers.authorization = `Bearer ${token.value}`;
      return this.generation;
    }
    return this.refreshThenAuthorize(headers);
  }

  private async refreshThenAuthorize(headers: Record<string, string>): Promise<number> {
    try {
      await this.refresh();
    } catch (error) {
      // A token past its refresh point but not yet expired still works: use it and try again next call.
      const token = this.token;
      if (!token || this.now() >= token.expiresAt) throw error;
      this.warn(`access token refresh failed, using the current token until it expires: ${String(error)}`);
    }
    headers.authorization = `Bearer ${this.token!.value}`;
    return this.generation;
  }

  observe(): void {}

  shouldRenew(status: number): boolean {
    return status === 401;
  }

  async renew(generation: number): Promise<void> {
    if (generation !== this.generation) return this.inflight;
    this.token = undefined;
    await this.refresh();
  }

  /** One grant in flight however many calls wait for it. */
  private refresh(): Promise<void> {
    this.inflight ??= this.grant().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async grant(): Promise<void> {
    const form: Record<string, string> = { grant_type: "refresh_token", refresh_token: this.refreshToken };
    if (this.accountId !== undefined) form.account_id = this.accountId;
    const response = await this.send({ method: "POST", path: this.tokenPath, form });
    const parsed = parseJson(response.body, tokenResponseSchema);
    if (!parsed) {
      // What came instead, without its text (an echo could hold the refresh token): an HTML page
      // there is a proxy or a captive portal, not a malformed grant.
      const type = String(response.headers["content-type"] ?? "no content-type").split(";")[0];
      throw new ApiError({
        kind: "invalid",
        code: ApiErrorCodes.badResponse,
        method: "POST",
        href: this.tokenPath,
        status: response.status,
        message: `POST ${this.tokenPath}: the token response is not {access_token, expires_in, token_type} (${response.status}, ${type}, ${response.body.length} characters)`,
      });
    }
    this.hold(parsed.access_token);
    const now = this.now();
    const lifetimeMs = parsed.expires_in * 1000;
    this.token = { value: parsed.access_token, refreshAt: now + lifetimeMs / 2, expiresAt: now + lifetimeMs };
    this.generation++;
  }
}

const SESSION_EXPIRED = /Session cookie is expired or invalid/i;

/** The session cookie (spec 5.1): the one the jar never drops to make room for others. */
export const SESSION_COOKIE = "_session_id";

/**
 * Session login (email, password, account href). Every response's cookies are kept, within the
 * jar's bounds (cookies.ts); a 401, or a 403 saying the session cookie expired, triggers one new
 * login. A 403 for a missing role says something else and is returned to the caller as is.
 */
export class SessionAuthenticator implements Authenticator {
  private readonly jar: CookieJar;
  private loggedIn = false;
  private generation = 0;
  private inflight: Promise<void> | undefined;
  private readonly email: string;
  private readonly password: string;
  private readonly accountHref: string;
  private readonly send: UnauthenticatedSend;
  private readonly hold: HoldSecret;

  constructor(
    options: Extract<AuthOptions, { type: "session" }>,
    accountId: string,
    send: UnauthenticatedSend,
    now: () => number,
    hold: HoldSecret = () => {},
  ) {
    this.email = options.email;
    this.password = options.password;
    this.accountHref = `/api/accounts/${accountId}`;
    this.send = send;
    this.jar = new CookieJar(SESSION_COOKIE, now);
    this.hold = hold;
  }

  authorize(headers: Record<string, string>): number | Promise<number> {
    if (this.loggedIn) {
      const cookie = this.jar.header();
      if (cookie) headers.cookie = cookie;
      return this.generation;
    }
    return this.login().then(() => this.authorize(headers));
  }

  observe(response: WireResponse, host: string): void {
    const setCookie = response.headers["set-cookie"];
    if (setCookie === undefined) return;
    this.jar.update(setCookie, host);
    // Every cookie is redacted wherever a header carries it (redact-fields.ts); the session's
    // value is also scrubbed wherever else an echo may put it.
    const session = this.jar.get(SESSION_COOKIE);
    if (session !== undefined) this.hold(session);
  }

  shouldRenew(status: number, body: string): boolean {
    return status === 401 || (status === 403 && SESSION_EXPIRED.test(body));
  }

  async renew(generation: number): Promise<void> {
    if (generation !== this.generation) return this.inflight;
    this.loggedIn = false;
    await this.login();
  }

  cookieNames(): string[] {
    return this.jar.names();
  }

  private login(): Promise<void> {
    this.inflight ??= this.postSession().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async postSession(): Promise<void> {
    // The response's cookies reach the jar through observe(), like every other response.
    await this.send({
      method: "POST",
      path: "/api/session",
      form: { email: this.email, password: this.password, account_href: this.accountHref },
    });
    this.loggedIn = true;
    this.generation++;
  }
}

function parseJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
