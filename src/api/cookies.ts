import { parseCookie } from "undici";

/**
 * The session's cookies, updated from every response. One jar serves one account's
 * API on one service, so Domain and Path are not matched (every call is under /api and
 * redirects are already confined to the service domain), and Secure cookies are sent on
 * plain http too: the simulator on 127.0.0.1 sets `_session_id` Secure, and the real
 * service is https only.
 */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; expiresAt: number | undefined }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Applies `Set-Cookie` headers: new values replace old ones, expired ones are removed. */
  update(setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    const lines = Array.isArray(setCookie) ? setCookie : [setCookie];
    const now = this.now();
    for (const line of lines) {
      const cookie = parseCookie(line);
      if (!cookie || cookie.name === "") continue;
      const expiresAt =
        cookie.maxAge !== undefined
          ? now + cookie.maxAge * 1000
          : cookie.expires !== undefined
            ? new Date(cookie.expires).getTime()
            : undefined;
      if (expiresAt !== undefined && expiresAt <= now) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, { value: cookie.value, expiresAt });
    }
  }

  /** The `Cookie` header to send, or undefined when the jar holds nothing live. */
  header(): string | undefined {
    const now = this.now();
    const parts: string[] = [];
    for (const [name, { value, expiresAt }] of this.cookies) {
      if (expiresAt !== undefined && expiresAt <= now) {
        this.cookies.delete(name);
        continue;
      }
      parts.push(`${name}=${value}`);
    }
    return parts.length > 0 ? parts.join("; ") : undefined;
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  values(): string[] {
    return [...this.cookies.values()].map((c) => c.value);
  }

  clear(): void {
    this.cookies.clear();
  }
}
