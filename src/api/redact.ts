import { encodeForm } from "./encoding.ts";
import { REDACTED, redactFields } from "./redact-fields.ts";

/**
 * Removes the credentials a client holds from what it lets out. A proxy, a WAF or an endpoint
 * that echoes the request puts the refresh token, the email and password, the access token or
 * the cookies in an error body, and that body becomes an error message, which reaches
 * conditions, Events and logs. The client scrubs every error it throws, once, before anyone else
 * sees it, in two ways:
 *
 * - by what a credential is (redact-fields.ts): the value of every `Cookie`, `Set-Cookie` and
 *   `Authorization` header and of every token and password field, however many cookies there are;
 * - by value, wherever it appears: the Account's credentials, and the newest access tokens and
 *   session cookie values the client obtained. Each value is matched as sent and as an echo may
 *   render it: URL-encoded (both `%20` and `+` for a space, either hex case) and JSON-escaped
 *   (with `\/` and with non-ASCII as `\uXXXX`).
 */

export { REDACTED };

/**
 * Values the client obtains on its own (access tokens, session cookie values) shorter than this
 * are not scrubbed by value: a short one must not turn every "en" of a message into
 * `[redacted]`. The Account's own credentials are scrubbed whatever their length.
 */
export const MIN_HELD_LENGTH = 8;
/**
 * Obtained values kept (the newest; one held again becomes the newest): tokens are renewed every
 * hour or so, for days. Only the credentials are held, never other cookies, so a service cannot
 * push the current ones out; and the headers that carry them are redacted whatever they hold.
 */
const MAX_HELD = 32;
/** How deep a cause chain and nested members are followed. */
const MAX_DEPTH = 5;

/** Every rendering of a credential an echo can produce. */
export function credentialForms(value: string): string[] {
  const forms = new Set<string>([value]);
  const json = JSON.stringify(value).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll("/", "\\/"));
  forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  const urlForms = [
    encodeURIComponent(value),
    // What the client's own form bodies carry (RFC 3986, `!'()*` escaped too).
    encodeForm({ v: value }).slice(2),
    // WHATWG form encoding, as most servers and proxies re-encode a body.
    new URLSearchParams({ v: value }).toString().slice(2),
  ];
  for (const form of urlForms) {
    forms.add(form);
    forms.add(form.replaceAll("%20", "+"));
    forms.add(form.replaceAll("+", "%20"));
  }
  return [...forms].filter((f) => f.length > 0);
}

export class Redactor {
  private readonly fixed: string[];
  /** Obtained values, oldest first (a Set keeps insertion order). */
  private readonly held = new Set<string>();
  private pattern: RegExp | undefined;
  private stale = true;

  /** `credentials`: the values the client was given (refresh token, or email and password). */
  constructor(credentials: Iterable<string>) {
    this.fixed = [...credentials].filter((v) => v.length > 0);
  }

  /** A value the client obtained and sends from now on (an access token, a session cookie). */
  hold(value: string): void {
    if (value.length < MIN_HELD_LENGTH) return;
    if (this.held.delete(value)) {
      this.held.add(value);
      return;
    }
    this.held.add(value);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.values().next().value as string);
    this.stale = true;
  }

  text(text: string): string {
    const pattern = this.compiled();
    // Values first: a raw credential may hold what ends a field's value (`&`, a space).
    return redactFields(pattern === undefined ? text : text.replace(pattern, REDACTED));
  }

  /**
   * Scrubs an error in place and returns it: its message and stack, its own string members
   * (an ApiError's serviceMessage, fieldErrors, href), and the same down its cause chain.
   * In place, so that its class, code and kind stay what callers branch on.
   */
  error<T>(error: T): T {
    this.scrubError(error, 0);
    return error;
  }

  private scrubError(value: unknown, depth: number): void {
    if (!(value instanceof Error) || depth > MAX_DEPTH) return;
    const record = value as unknown as Record<string, unknown>;
    try {
      value.message = this.text(value.message);
      if (typeof value.stack === "string") value.stack = this.text(value.stack);
      for (const key of Object.keys(value)) record[key] = this.scrubMember(record[key], depth);
    } catch {
      // A frozen foreign error: its members cannot be changed; the cause may still be.
    }
    this.scrubError(value.cause, depth + 1);
  }

  private scrubMember(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value);
    if (depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => this.scrubMember(v, depth + 1));
    if (value instanceof Error) {
      this.scrubError(value, depth + 1);
      return value;
    }
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.scrubMember(record[key], depth + 1);
    }
    return value;
  }

  private compiled(): RegExp | undefined {
    if (!this.stale) return this.pattern;
    const forms = new Set<string>();
    for (const value of [...this.fixed, ...this.held])
      for (const form of credentialForms(value)) forms.add(form);
    // Longest first, so that a value inside another (an email inside its encoded form) cannot
    // leave part of the longer one behind.
    const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join("|"), "gi");
    this.stale = false;
    return this.pattern;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
