import { EventEmitter } from "node:events";
import type { IncomingHttpHeaders } from "node:http";
import { Agent, type Dispatcher, type FormData } from "undici";

export interface TransportOptions {
  /** TCP/TLS connect timeout. */
  connectTimeoutMs: number;
  /** Per attempt: time to the response headers, and the longest gap between body chunks. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Connections per host (one pool per host). */
  connectionsPerHost: number;
}

export const DEFAULT_TRANSPORT: TransportOptions = {
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 30_000,
  connectionsPerHost: 16,
};

/** An undici Agent: one keep-alive Pool per origin, created on first use. */
export function createDispatcher(options: TransportOptions): Agent {
  return new Agent({
    connections: options.connectionsPerHost,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    connect: { timeout: options.connectTimeoutMs },
  });
}

export interface WireRequest {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
  signal?: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An attempt that took longer than `requestTimeoutMs` in total (headers and body). */
export class AttemptTimeoutError extends Error {
  override name = "AttemptTimeoutError";
  readonly code = "SVC_ATTEMPT_TIMEOUT";
}

/**
 * One HTTP exchange; the body is read fully (API answers are small). The whole attempt is
 * bounded by a timer that aborts it: undici's own headers/body timers are coarse (about
 * 500 ms) and stay as a backstop. The abort goes through an EventEmitter, which undici
 * accepts as a signal and which costs about 1 us per call where AbortSignal.timeout costs
 * about 18 us (measured on Node 24), a sizeable share of a loopback call.
 */
export async function sendOnce(
  dispatcher: Dispatcher,
  request: WireRequest,
  timeoutMs: number,
): Promise<WireResponse> {
  const abort = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit("abort");
  }, timeoutMs);
  const caller = request.signal;
  const forward = () => abort.emit("abort");
  caller?.addEventListener("abort", forward, { once: true });
  try {
    if (caller?.aborted) throw caller.reason;
    const response = await dispatcher.request({
      origin: request.origin,
      path: request.path,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body ?? null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: abort,
    });
    const body = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    if (timedOut && !caller?.aborted) {
      throw new AttemptTimeoutError(`no complete answer within ${timeoutMs} ms`, { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", forward);
  }
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
