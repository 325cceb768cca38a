import { isIP } from "node:net";
import { parseCookie } from "undici";
import { normalizeHost } from "./allowlist.ts";
import { registrableDomain } from "./redirect.ts";

/**
 * The most cookies a jar keeps. RFC 6265 section 6.1 asks a user agent for at least 50 per
 * domain, as browsers keep; the service sets two. A service that sets new ones on every answer
 * would otherwise grow the jar, and the `Cookie` header of every call, without bound.
 */
export const MAX_COOKIES = 50;
/** The largest cookie kept, name and value together (RFC 6265 section 6.1, as browsers bound them). */
export const MAX_COOKIE_BYTES = 4096;

// RFC 6265 section 4.1.1: a name is a token; a value is cookie-octets, which exclude whitespace,
// DQUOTE, comma, semicolon and backslash. A cookie outside the grammar is refused, so that every
// `Cookie` header the client sends ends where the grammar says, which is how the redactor finds
// its end in an echo (redact-fields.ts).
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

interface StoredCookie {
  value: string;
  expiresAt: number | undefined;
}

/**
 * The session's cookies, updated from every response. One jar serves one account's API on one
 * service: a cookie is kept only when its Domain attribute (if any) domain-matches the host that
 * set it, and every cookie kept is sent on every call. All of them came from hosts the redirect
 * scope allows (redirect.ts), and the client calls one host of the account at a time, so Domain
 * and Path are not matched again when sending, and Secure cookies are sent on plain http too:
 * the simulator on 127.0.0.1 sets `_session_id` Secure, and the real service is https only.
 *
 * At most MAX_COOKIES of at most MAX_COOKIE_BYTES are kept. When a new cookie finds the jar full,
 * the oldest cookie other than the session cookie is dropped (a re-set cookie counts as new).
 * Refusing new cookies instead would let a burst of junk lock out every cookie the service sets
 * later for the client's whole life; evicting keeps what the service set last, and the session
 * cookie, which the service re-sets at each login, is never pushed out by other cookies.
 */
export class CookieJar {
  /** Oldest set first (a Map keeps insertion order; a re-set cookie is moved to the end). */
  private readonly cookies = new Map<string, StoredCookie>();
  private readonly sessionCookie: string;
  private readonly now: () => number;

  /** `sessionCookie`: the name of the cookie that is never evicted to make room for others. */
  constructor(sessionCookie: string, now: () => number = Date.now) {
    this.sessionCookie = sessionCookie;
    this.now = now;
  }

  /**
   * Applies the `Set-Cookie` headers of an answer from `host`: new values replace old ones,
   * expired ones are removed, and a cookie too large, outside the grammar, or with a Domain that
   * does not domain-match `host` is ignored.
   */
  update(setCookie: string | string[] | undefined, host: string): void {
    if (setCookie === undefined) return;
    const lines = Array.isArray(setCookie) ? setCookie : [setCookie];
    const now = this.now();
    for (const line of lines) {
      const cookie = parseCookie(line);
      if (!cookie || !isAcceptable(cookie, host)) continue;
      const expiresAt =
        cookie.maxAge !== undefined
          ? now + cookie.maxAge * 1000
          : cookie.expires !== undefined
            ? new Date(cookie.expires).getTime()
            : undefined;
      this.cookies.delete(cookie.name);
      if (expiresAt !== undefined && expiresAt <= now) continue;
      this.cookies.set(cookie.name, { value: cookie.value, expiresAt });
      if (this.cookies.size > MAX_COOKIES) this.makeRoom(now);
    }
  }

  /** The `Cookie` header to send, or undefined when the jar holds nothing live. */
  header(): string | undefined {
    this.dropExpired(this.now());
    const parts: string[] = [];
    for (const [name, { value }] of this.cookies) parts.push(`${name}=${value}`);
    return parts.length > 0 ? parts.join("; ") : undefined;
  }

  /** The value of a live cookie, or undefined. */
  get(name: string): string | undefined {
    const cookie = this.cookies.get(name);
    if (cookie === undefined) return undefined;
    if (cookie.expiresAt !== undefined && cookie.expiresAt <= this.now()) return undefined;
    return cookie.value;
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  clear(): void {
    this.cookies.clear();
  }

  /** Drops expired cookies, then the oldest cookie that is not the session's, until the jar fits. */
  private makeRoom(now: number): void {
    this.dropExpired(now);
    for (const name of this.cookies.keys()) {
      if (this.cookies.size <= MAX_COOKIES) return;
      if (name !== this.sessionCookie) this.cookies.delete(name);
    }
  }

  private dropExpired(now: number): void {
    for (const [name, { expiresAt }] of this.cookies)
      if (expiresAt !== undefined && expiresAt <= now) this.cookies.delete(name);
  }
}

function isAcceptable(cookie: { name: string; value: string; domain?: string }, host: string): boolean {
  if (!COOKIE_NAME.test(cookie.name) || !COOKIE_VALUE.test(cookie.value)) return false;
  if (Buffer.byteLength(cookie.name) + Buffer.byteLength(cookie.value) > MAX_COOKIE_BYTES) return false;
  // An empty Domain attribute is ignored (RFC 6265 section 5.2.3): the cookie is the host's own.
  return !cookie.domain || domainAccepts(cookie.domain, host);
}

/**
 * Whether a cookie from `host` may carry `Domain=domain` (RFC 6265 section 5.3, step 5-6): the
 * host itself, or a parent domain of it that is not a public suffix (a cookie for `co.uk` or
 * `github.io` would be every site's there).
 */
export function domainAccepts(domain: string, host: string): boolean {
  const d = normalizeHost(domain);
  const h = normalizeHost(host);
  if (d === h) return true;
  return isIP(h) === 0 && h.endsWith(`.${d}`) && registrableDomain(d) !== undefined;
}
