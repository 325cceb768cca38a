import { EventEmitter } from "node:events";
import type { IncomingHttpHeaders } from "node:http";
import { Agent, type Dispatcher, type FormData } from "undici";

/**
 * The largest answer read by default: 64 MiB. The largest representation an index returns is a
 * deployment in view `inputs_2_0`, about 0.5 KB plus 100 bytes per input: 10,000 of them with 60
 * inputs each is 63 MiB. Reading and parsing that takes about 250 MiB, what a 512 Mi pod allows.
 * docs/api-client.md has the estimate.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface TransportOptions {
  /** TCP/TLS connect timeout. */
  connectTimeoutMs: number;
  /** Per attempt: time to the response headers, and the longest gap between body chunks. */
  requestTimeoutMs: number;
  /**
   * Per attempt of a quick call (CallOptions.quick: the credentials check, token grants, session
   * logins): time to the response headers. Those calls are answered at once by a service that is
   * there; the other calls (a create can take long to answer) keep `requestTimeoutMs` only.
   */
  firstByteTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Connections per host (one pool per host). */
  connectionsPerHost: number;
  /** The largest body read; a longer one aborts the attempt (ResponseTooLargeError). */
  maxResponseBytes: number;
}

export const DEFAULT_TRANSPORT: TransportOptions = {
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 60_000,
  firstByteTimeoutMs: 5_000,
  keepAliveTimeoutMs: 30_000,
  connectionsPerHost: 16,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
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
  readonly code: string = "SVC_ATTEMPT_TIMEOUT";
}

/** A quick call's attempt whose answer did not start within `firstByteTimeoutMs`. */
export class FirstByteTimeoutError extends AttemptTimeoutError {
  override name = "FirstByteTimeoutError";
  override readonly code = "SVC_FIRST_BYTE_TIMEOUT";
}

/** An answer whose body is longer than `maxResponseBytes`: the attempt was aborted unread. */
export class ResponseTooLargeError extends Error {
  override name = "ResponseTooLargeError";
  readonly code = "SVC_RESPONSE_TOO_LARGE";
  readonly status: number;
  readonly limitBytes: number;
  /** What Content-Length announced, when it did. */
  readonly declaredBytes: number | undefined;

  constructor(status: number, limitBytes: number, declaredBytes: number | undefined) {
    super(
      declaredBytes === undefined
        ? `the answer (${status}) went past ${limitBytes} bytes`
        : `the answer (${status}) announced ${declaredBytes} bytes, more than ${limitBytes}`,
    );
    this.status = status;
    this.limitBytes = limitBytes;
    this.declaredBytes = declaredBytes;
  }
}

/**
 * One HTTP exchange; the body is read up to `maxResponseBytes`. The whole attempt is
 * bounded by a timer that aborts it: undici's own headers/body timers are coarse (about
 * 500 ms) and stay as a backstop. The abort goes through an EventEmitter, which undici
 * accepts as a signal and which costs about 1 us per call where AbortSignal.timeout costs
 * about 18 us (measured on Node 24), a sizeable share of a loopback call. `firstByteMs`, for a
 * quick call only, bounds the wait for the answer's headers too (a second timer).
 */
export async function sendOnce(
  dispatcher: Dispatcher,
  request: WireRequest,
  timeoutMs: number,
  maxResponseBytes: number,
  firstByteMs?: number,
): Promise<WireResponse> {
  const abort = new EventEmitter();
  let timedOut: "attempt" | "first byte" | undefined;
  const expire = (which: "attempt" | "first byte") => () => {
    timedOut = which;
    abort.emit("abort");
  };
  const timer = setTimeout(expire("attempt"), timeoutMs);
  const quick = firstByteMs !== undefined && firstByteMs < timeoutMs;
  const firstByte = quick ? setTimeout(expire("first byte"), firstByteMs) : undefined;
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
      headersTimeout: quick ? firstByteMs : timeoutMs,
      bodyTimeout: timeoutMs,
      signal: abort,
    });
    clearTimeout(firstByte);
    const body = await readBody(response, maxResponseBytes);
    return { status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    if (timedOut === "first byte" && !caller?.aborted)
      throw new FirstByteTimeoutError(`no answer within ${firstByteMs} ms`, { cause: error });
    if (timedOut === "attempt" && !caller?.aborted) {
      throw new AttemptTimeoutError(`no complete answer within ${timeoutMs} ms`, { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    clearTimeout(firstByte);
    caller?.removeEventListener("abort", forward);
  }
}

/**
 * The body as text, never holding more than `limit` bytes of it. A Content-Length within the
 * limit frames the body (undici reads exactly that many bytes), so it is read at once; a chunked
 * or unannounced body is counted as it streams and dropped past the limit.
 */
async function readBody(response: Dispatcher.ResponseData, limit: number): Promise<string> {
  const { body, statusCode } = response;
  const length = headerValue(response.headers, "content-length");
  const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
  if (declared !== undefined && declared <= limit) return body.text();
  if (declared !== undefined) {
    body.destroy();
    throw new ResponseTooLargeError(statusCode, limit, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      chunks.length = 0;
      body.destroy();
      throw new ResponseTooLargeError(statusCode, limit, undefined);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
