import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import { type Authenticator, credentialValues, OAuthAuthenticator, SessionAuthenticator } from "./auth.ts";
import {
  type ApiClientOptions,
  type CallEvent,
  type CallOptions,
  type CallResult,
  parseEndpoint,
  requirePositive,
} from "./client-options.ts";
import { aheadOfOthers, ConnectionGate } from "./connection-gate.ts";
import { encodeForm, encodeQuery, FORM_CONTENT_TYPE } from "./encoding.ts";
import {
  ApiError,
  ApiErrorCodes,
  errorFromResponse,
  networkError,
  outcomeUnknownError,
  responseTooLargeError,
  wasNeverSent,
} from "./errors.ts";
import { apiLogger } from "./logger.ts";
import { DEFAULT_RATE_LIMIT, TokenBucket } from "./rate-limiter.ts";
import { Redactor } from "./redact.ts";
import { type RedirectScope, redirectScope, resolveRedirect } from "./redirect.ts";
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
  ResponseTooLargeError,
  sendOnce,
  type WireResponse,
} from "./transport.ts";

export const API_VERSION = "1.5";

export type { ApiClientOptions, CallEvent, CallOptions, CallResult, HttpMethod } from "./client-options.ts";

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
  private readonly scope: RedirectScope;
  private readonly redactor: Redactor;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Dispatcher;
  /** The dispatcher's connections, the calls many wait on first (connection-gate.ts). */
  private readonly gate: ConnectionGate;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly firstByteTimeoutMs: number;
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
    const endpoint = parseEndpoint(options.endpoint, options.allowedEndpoints);
    this.accountId = String(options.accountId);
    if (!/^\d+$/.test(this.accountId))
      throw new TypeError(`accountId: must be digits, got "${this.accountId}"`);
    this.origin = endpoint.origin;
    const allowlist = options.serviceDomain;
    if (allowlist && (allowlist.length === 0 || allowlist.some((d) => d.trim() === ""))) {
      throw new TypeError("serviceDomain: must list at least one non-empty host or domain");
    }
    this.scope = redirectScope(endpoint, allowlist, options.allowedEndpoints);
    this.redactor = new Redactor(credentialValues(options.auth));
    const transport = { ...DEFAULT_TRANSPORT, ...options.transport };
    requirePositive("transport", transport);
    this.maxResponseBytes = transport.maxResponseBytes;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher(transport);
    this.gate = new ConnectionGate(transport.connectionsPerHost);
    this.timeoutMs = transport.requestTimeoutMs;
    this.firstByteTimeoutMs = transport.firstByteTimeoutMs;
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
    // Every call waits for the token: its refresh goes ahead of them. A grant or a login is
    // answered at once by a service that is there, and is the first call to a new endpoint: quick.
    const send = (request: { method: "POST"; path: string; form: Record<string, string> }) =>
      aheadOfOthers(() => this.exchange({ ...request, idempotent: true, quick: true }, false));
    const hold = (value: string) => this.redactor.hold(value);
    const warn = (message: string) => this.logger.warn(message);
    this.auth =
      options.auth.type === "oauth"
        ? new OAuthAuthenticator(options.auth, this.accountId, send, this.now, warn, hold)
        : new SessionAuthenticator(options.auth, this.accountId, send, this.now, hold);
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

  /**
   * Scrubs the credentials this client holds (given, and obtained: access token, cookies) from an
   * error, in place. Every error the client throws has been through it; resource functions pass
   * the errors they build from an answer through it too (index.ts).
   */
  redact<T>(error: T): T {
    return this.redactor.error(error);
  }

  /** The same for text taken from an answer, before it is cut or quoted. */
  readonly scrub = (text: string): string => this.redactor.text(text);

  private async exchange(options: CallOptions, authenticate: boolean): Promise<CallResult> {
    try {
      return await this.attempts(options, authenticate);
    } catch (error) {
      throw this.redactor.error(error);
    }
  }

  private async attempts(options: CallOptions, authenticate: boolean): Promise<CallResult> {
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
        response = await this.gate.run(
          () =>
            sendOnce(
              this.dispatcher,
              { origin, path, method, headers, body, signal: options.signal },
              this.timeoutMs,
              this.maxResponseBytes,
              options.quick ? this.firstByteTimeoutMs : undefined,
            ),
          options.signal,
        );
      } catch (cause) {
        const status = cause instanceof ResponseTooLargeError ? cause.status : 0;
        this.report(method, route, status, t0, attempts, wait);
        if (options.signal?.aborted) throw cause;
        if (cause instanceof ResponseTooLargeError) {
          // The same call would get the same answer: not retried. A write may have been applied.
          const error = withAttempts(responseTooLargeError(method, href, origin, cause), attempts);
          throw idempotent
            ? error
            : withAttempts(outcomeUnknownError(method, href, error, cause.status), attempts);
        }
        const neverSent = wasNeverSent(cause);
        // A write that is not safe to repeat may have been applied: only a lookup can tell.
        if (!idempotent && !neverSent) throw withAttempts(outcomeUnknownError(method, href, cause), attempts);
        const error = withAttempts(networkError(method, href, cause), attempts);
        await this.backoff(error, options.signal, started, attempts, undefined);
        continue;
      }
      this.auth.observe(response, new URL(origin).hostname);
      const { status } = response;
      this.report(method, route, status, t0, attempts, wait);
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
        const target = resolveRedirect(method, new URL(path, origin), location, this.scope);
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

      const error = withAttempts(
        errorFromResponse(method, href, status, response.body, this.scrub),
        attempts,
      );
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
        route: this.routeOf(error.href),
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
      // A metric label and a log field: an href is the caller's, but may have come from an answer.
      route = this.redactor.text(routeTemplate(href));
      if (this.routes.size >= 10_000) this.routes.clear();
      this.routes.set(href, route);
    }
    return route;
  }

  private report(
    method: string,
    route: string,
    status: number,
    t0: number,
    attempt: number,
    rateLimitWaitMs: number,
  ): void {
    const durationMs = performance.now() - t0;
    this.logger.debug({ method, route, status, durationMs, attempt }, "api call");
    this.onCall?.({ method, route, status, durationMs, attempt, rateLimitWaitMs });
  }
}

function withAttempts(error: ApiError, attempts: number): ApiError {
  error.attempts = attempts;
  return error;
}
