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

/** One HTTP exchange; the body is read fully (API answers are small). */
export async function sendOnce(
  dispatcher: Dispatcher,
  request: WireRequest,
  timeoutMs: number,
): Promise<WireResponse> {
  const response = await dispatcher.request({
    origin: request.origin,
    path: request.path,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body ?? null,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: request.signal ?? null,
  });
  const body = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body };
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
