import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "pino";
import type { Dispatcher, FormData } from "undici";
import type { EndpointAllowlist } from "./allowlist.ts";
import type { AuthOptions } from "./auth.ts";
import type { Params } from "./encoding.ts";
import { endpointProblem } from "./endpoint.ts";
import type { RateLimitOptions, TokenBucket } from "./rate-limiter.ts";
import type { RetryOptions } from "./retry.ts";
import type { TransportOptions } from "./transport.ts";

/** The service client's options and call shapes, and how the options are checked. */

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
  /** How long the account's rate limiter held this exchange back before it was sent (0: not at all). */
  rateLimitWaitMs: number;
}

export interface ApiClientOptions {
  /** Base URL of the account's regional host, e.g. `https://us-3.example.com` (http only on loopback). */
  endpoint: string;
  accountId: string | number;
  auth: AuthOptions;
  /** An undici dispatcher to send through (tests, bench, proxies). Default: an Agent the client owns. */
  dispatcher?: Dispatcher;
  transport?: Partial<TransportOptions>;
  retry?: Partial<RetryOptions>;
  /** Token bucket options, a bucket shared with other clients of the same account, or false for none. */
  rateLimit?: RateLimitOptions | TokenBucket | false;
  /**
   * Hosts (and their subdomains) a redirect may lead to, within the endpoint's registrable
   * domain: it narrows that rule, never widens it (see redirect.ts).
   */
  serviceDomain?: string[];
  /**
   * The hosts (and ports) calls may go to at all: the endpoint must match (else the constructor
   * throws) and so must every redirect target (else the call fails with
   * `SVC_ENDPOINT_NOT_ALLOWED` before anything is sent there). Narrows, like `serviceDomain`.
   */
  allowedEndpoints?: EndpointAllowlist;
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
  /**
   * A cheap call a service that is there answers at once (the credentials check): each attempt
   * waits at most `transport.firstByteTimeoutMs` for the answer to start, so an endpoint that
   * accepts connections and never answers fails it in seconds. Not for creates or long indexes,
   * whose answers may legitimately take longer.
   */
  quick?: boolean;
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Every member must be a finite number > 0; the error names the option and the member. */
export function requirePositive(prefix: string, values: object): void {
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`${prefix}.${key}: must be a number > 0, got ${String(value)}`);
    }
  }
}

/**
 * The endpoint as a URL; refused unless https, or http to a loopback host (endpoint.ts), and
 * unless `allowed` (when given) lists its host.
 */
export function parseEndpoint(endpoint: string, allowed?: EndpointAllowlist): URL {
  const problem = endpointProblem(endpoint);
  if (problem !== undefined) throw new TypeError(`endpoint: ${problem}`);
  const url = new URL(endpoint);
  const outside = allowed?.problem(url);
  if (outside !== undefined) throw new TypeError(`endpoint: ${outside}`);
  return url;
}
