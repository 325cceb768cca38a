import type { IncomingHttpHeaders } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "pino";
import type { Dispatcher, FormData } from "undici";
import { type Authenticator, type AuthOptions, OAuthAuthenticator, SessionAuthenticator } from "./auth.ts";
import { encodeForm, encodeQuery, FORM_CONTENT_TYPE, type Params } from "./encoding.ts";
import {
  ApiError,
  ApiErrorCodes,
  errorFromResponse,
  networkError,
  outcomeUnknownError,
  wasNeverSent,
} from "./errors.ts";
import { apiLogger } from "./logger.ts";
import { DEFAULT_RATE_LIMIT, type RateLimitOptions, TokenBucket } from "./rate-limiter.ts";
import { defaultServiceDomain, resolveRedirect } from "./redirect.ts";
import {
  DEFAULT_RETRY,
  isIdempotentMethod,
  nextRetryDelay,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryOptions,
} from "./retry.ts";
import { routeTemplate } from "./route-template.ts";
import {
  createDispatcher,
  DEFAULT_TRANSPORT,
  headerValue,
  sendOnce,
  type TransportOptions,
  type WireResponse,
} from "./transport.ts";

export const API_VERSION = "1.5";

/** One HTTP exchange, reported to `onCall` (redirects, retries and auth calls included). */
export interface CallEvent {
  method: string;
  /** Route template such as `/api/clouds/:id/volumes/:id`, never the raw href. */
  route: string;
  /** HTTP status, or 0 when no answer arrived (network error, timeout). */
  status: number;
  durationMs: number;
  /** 1 for the first attempt of a call. */
  attempt: number;
}

export interface ApiClientOptions {
  /** Base URL of the account's regional host, e.g. `https://us-3.example.com`. */
  endpoint: string;
  accountId: string | number;
  auth: AuthOptions;
  /** An undici dispatcher to send through (tests, bench, proxies). Default: an Agent the client owns. */
  dispatcher?: Dispatcher;
  transport?: Partial<TransportOptions>;
  retry?: Partial<RetryOptions>;
  /** Token bucket options, a bucket shared with other clients of the same account, or false for none. */
  rateLimit?: RateLimitOptions | TokenBucket | false;
  /** Hosts (and their subdomains) a redirect may lead to. Default: see `defaultServiceDomain`. */
  serviceDomain?: string[];
  maxRedirects?: number;
  logger?: Logger;
  onCall?: (event: CallEvent) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface CallOptions {
  method: HttpMethod;
  /** An href or path under the account's host (`/api/...`); opaque, never rebuilt. */
  path: string;
  query?: Params;
  /** Form body (bracket notation). */
  form?: Params;
  multipart?: FormData;
  /** A POST action that is safe to repeat (lock, unlock, clone is not). */
  idempotent?: boolean;
  /**
   * A POST that creates an object: never retried; a lost answer becomes `outcomeUnknown`
   * (as for every call that is not idempotent).
   */
  create?: boolean;
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * The service client's transport pipeline: rate limit, authentication, regional
 * redirects, retries and error classification around one undici dispatcher.
 * Create one per account and share it between every caller of that account.
 */
export class ApiClient {
  readonly accountId: string;
  readonly logger: Logger;
  private origin: string;
  private readonly domain: string[];
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly retry: RetryOptions;
  private readonly limiter: TokenBucket | undefined;
  private readonly maxRedirects: number;
  private readonly auth: Authenticator;
  private readonly baseHeaders: Record<string, string>;
  private readonly onCall: ((event: CallEvent) => void) | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  /** Route templates of recent hrefs (the same objects are read every resync). */
  private readonly routes = new Map<string, string>();

  constructor(options: ApiClientOptions) {
    const endpoint = parseEndpoint(options.endpoint);
    this.accountId = String(options.accountId);
    if (!/^\d+$/.test(this.accountId))
      throw new TypeError(`accountId: must be digits, got "${this.accountId}"`);
    this.origin = endpoint.origin;
    this.domain = options.serviceDomain ?? defaultServiceDomain(endpoint);
    if (this.domain.length === 0 || this.domain.some((d) => d.trim() === "")) {
      throw new TypeError("serviceDomain: must list at least one non-empty host or domain");
    }
    const transport = { ...DEFAULT_TRANSPORT, ...options.transport };
    requirePositive("transport", transport);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher(transport);
    this.timeoutMs = transport.requestTimeoutMs;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    requirePositive("retry", this.retry);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.random = options.random ?? Math.random;
    this.limiter =
      options.rateLimit === false
        ? undefined
        : options.rateLimit instanceof TokenBucket
          ? options.rateLimit
          : new TokenBucket(options.rateLimit ?? DEFAULT_RATE_LIMIT, this.now);
    this.maxRedirects = options.maxRedirects ?? 3;
    if (!Number.isInteger(this.maxRedirects) || this.maxRedirects < 0) {
      throw new TypeError(`maxRedirects: must be an integer >= 0, got ${this.maxRedirects}`);
    }
    this.logger = apiLogger(options.logger);
    this.onCall = options.onCall;
    this.baseHeaders = {
      "x-api-version": API_VERSION,
      "x-account": this.accountId,
      accept: "application/json",
    };
    const send = (request: { method: "POST"; path: string; form: Record<string, string> }) =>
      this.exchange({ ...request, idempotent: true }, false);
    this.auth =
      options.auth.type === "oauth"
        ? new OAuthAuthenticator(options.auth, this.accountId, send, this.now, (m) => this.logger.warn(m))
        : new SessionAuthenticator(options.auth, this.accountId, send, this.now);
  }

  /** The origin calls go to: the endpoint's, or the regional host a redirect named. */
  get currentOrigin(): string {
    return this.origin;
  }

  /** One authenticated call; resolves on 2xx, throws an ApiError otherwise. */
  call(options: CallOptions): Promise<CallResult> {
    return this.exchange(options, true);
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async exchange(options: CallOptions, authenticate: boolean): Promise<CallResult> {
    const { method } = options;
    const href = options.path;
    const body = options.multipart ?? (options.form ? encodeForm(options.form) : undefined);
    const idempotent = !options.create && (options.idempotent ?? isIdempotentMethod(method));
    const route = this.routeOf(href);
    const started = this.now();
    let path = href + encodeQuery(options.query);
    let attempts = 0;
    let redirects = 0;
    let renewed = false;

    for (;;) {
      attempts++;
      const wait = this.limiter?.reserve() ?? 0;
      if (wait > 0) await this.sleep(wait, options.signal);
      const headers = { ...this.baseHeaders };
      if (typeof body === "string") headers["content-type"] = FORM_CONTENT_TYPE;
      let generation = 0;
      if (authenticate) {
        const g = this.auth.authorize(headers);
        generation = typeof g === "number" ? g : await g;
      }
      const origin = this.origin;
      const t0 = performance.now();
      let response: WireResponse;
      try {
        response = await sendOnce(
          this.dispatcher,
          { origin, path, method, headers, body, signal: options.signal },
          this.timeoutMs,
        );
      } catch (cause) {
        this.report(method, route, 0, t0, attempts);
        if (options.signal?.aborted) throw cause;
        const neverSent = wasNeverSent(cause);
        // A write that is not safe to repeat may have been applied: only a lookup can tell.
        if (!idempotent && !neverSent) throw withAttempts(outcomeUnknownError(method, href, cause), attempts);
        const error = withAttempts(networkError(method, href, cause), attempts);
        await this.backoff(error, options.signal, started, attempts, undefined);
        continue;
      }
      this.auth.observe(response);
      const { status } = response;
      this.report(method, route, status, t0, attempts);
      if (status >= 200 && status < 300) return response;

      const location = headerValue(response.headers, "location");
      if (REDIRECTS.has(status) && location !== undefined) {
        if (++redirects > this.maxRedirects) {
          throw new ApiError({
            kind: "invalid",
            code: ApiErrorCodes.redirectRefused,
            method,
            href,
            status,
            message: `${method} ${href}: more than ${this.maxRedirects} redirects`,
          });
        }
        const target = resolveRedirect(method, new URL(path, origin), location, this.domain);
        if (target.origin !== this.origin) {
          // The account lives on another regional host: every later call goes there directly.
          this.logger.info(
            { from: this.origin, to: target.origin, status },
            "regional redirect: using the account's host",
          );
          this.origin = target.origin;
        }
        path = target.pathname + target.search;
        attempts--;
        continue;
      }

      if (authenticate && !renewed && this.auth.shouldRenew(status, response.body)) {
        renewed = true;
        this.logger.debug({ method, route, status }, "credentials expired or refused: renewing once");
        await this.auth.renew(generation);
        attempts--;
        continue;
      }

      const error = withAttempts(errorFromResponse(method, href, status, response.body), attempts);
      if (!idempotent) {
        // The service may have committed the write before failing: the caller must look it up.
        if (status === 500 || status === 502 || status === 504) {
          throw withAttempts(outcomeUnknownError(method, href, error, status), attempts);
        }
        throw error;
      }
      if (!RETRYABLE_STATUSES.has(status)) throw error;
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], this.now());
      await this.backoff(error, options.signal, started, attempts, retryAfterMs);
    }
  }

  /** Waits before the next attempt, or throws `error` when the attempt or time budget is spent. */
  private async backoff(
    error: ApiError,
    signal: AbortSignal | undefined,
    started: number,
    attempts: number,
    retryAfterMs: number | undefined,
  ): Promise<void> {
    const wait = nextRetryDelay(
      { attempts, elapsedMs: this.now() - started, retryAfterMs },
      this.retry,
      this.random,
    );
    if (wait === undefined) throw error;
    this.logger.debug(
      {
        method: error.method,
        route: routeTemplate(error.href),
        code: error.code,
        status: error.status,
        attempts,
        wait,
      },
      "retrying",
    );
    await this.sleep(wait, signal);
  }

  private routeOf(href: string): string {
    let route = this.routes.get(href);
    if (route === undefined) {
      route = routeTemplate(href);
      if (this.routes.size >= 10_000) this.routes.clear();
      this.routes.set(href, route);
    }
    return route;
  }

  private report(method: string, route: string, status: number, t0: number, attempt: number): void {
    const durationMs = performance.now() - t0;
    this.logger.debug({ method, route, status, durationMs, attempt }, "api call");
    this.onCall?.({ method, route, status, durationMs, attempt });
  }
}

function withAttempts(error: ApiError, attempts: number): ApiError {
  error.attempts = attempts;
  return error;
}

/** Every member must be a finite number > 0; the error names the option and the member. */
function requirePositive(prefix: string, values: object): void {
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`${prefix}.${key}: must be a number > 0, got ${String(value)}`);
    }
  }
}

function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError(`endpoint: must be an absolute http(s) URL, got "${endpoint}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`endpoint: must use http or https, got "${url.protocol}"`);
  }
  return url;
}
