import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";

/**
 * Limits every server of the package sets explicitly. Node's defaults let one client hold a
 * socket for five minutes by sending its request slowly (requestTimeout 300 s), and its timeout
 * checks run only every 30 s; an HTTPS socket that never starts TLS is held 120 s, and the
 * number of sockets is not limited at all.
 */
export const SERVER_LIMITS = {
  /**
   * Time allowed for the request line and the headers (408 and close past it); on HTTPS also for
   * the TLS handshake (close past it), since the headers timeout only starts once TLS is up.
   */
  headersTimeoutMs: 10_000,
  /** Time allowed for the whole request, body included (408 and close past it). */
  requestTimeoutMs: 60_000,
  /** Bytes of request line plus headers (431 past it): kubectl, client-node and undici send < 4 KiB. */
  maxHeaderSize: 16 * 1024,
  /** How often Node checks the two timeouts. */
  connectionsCheckingIntervalMs: 1_000,
  /**
   * Open connections; one past it is closed as soon as it is accepted, so a flood of idle sockets
   * holds at most this many file descriptors (well under the usual limit of the process).
   */
  maxConnections: 1_000,
} as const;

export type ServerLimits = { [K in keyof typeof SERVER_LIMITS]: number };

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface SafeServerOptions {
  /** Called once per request whose handler threw or rejected: the server's one log line. */
  onError: (error: unknown, req: IncomingMessage) => void;
  /** Answers such a request when nothing was sent yet (default: a plain-text 500). */
  answer500?: (res: ServerResponse, error: unknown) => void;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: string; key: string };
  keepAliveTimeoutMs?: number;
  limits?: Partial<ServerLimits>;
}

function plain500(res: ServerResponse): void {
  res.writeHead(500, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  res.end("internal server error (see the server log)\n");
}

/**
 * Wraps a request handler so that whatever it throws, synchronously or in its promise, ends as a
 * 500 (or a closed connection once the answer has started) and one `onError` call, never as an
 * uncaught exception that would stop the process.
 */
export function safeListener(handler: Handler, options: SafeServerOptions): RequestListener {
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    try {
      options.onError(error, req);
    } catch {
      // A failing logger must not turn one bad request into a process exit.
    }
    try {
      if (res.headersSent || res.destroyed) res.destroy();
      else (options.answer500 ?? plain500)(res, error);
    } catch {
      res.destroy();
    }
  };
  return (req, res) => {
    let result: void | Promise<void>;
    try {
      result = handler(req, res);
    } catch (error) {
      fail(req, res, error);
      return;
    }
    if (result) result.catch((error: unknown) => fail(req, res, error));
  };
}

/**
 * An HTTP or HTTPS server with the package's limits and a safe listener. Malformed requests
 * (bad request line, oversized headers, timeouts) never reach the handler: Node answers them
 * 400, 431 or 408 and closes the socket, which is why no `clientError` listener is installed.
 */
export function createSafeServer(handler: Handler, options: SafeServerOptions): Server {
  const limits = { ...SERVER_LIMITS, ...options.limits };
  const serverOptions: ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    maxHeaderSize: limits.maxHeaderSize,
    connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
  };
  if (options.keepAliveTimeoutMs !== undefined) serverOptions.keepAliveTimeout = options.keepAliveTimeoutMs;
  const listener = safeListener(handler, options);
  const server = options.tls
    ? createHttpsServer(
        { ...serverOptions, ...options.tls, handshakeTimeout: limits.headersTimeoutMs },
        listener,
      )
    : createHttpServer(serverOptions, listener);
  server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * The request target as a URL, or undefined when it is not one (the caller answers 400).
 * Origin-form targets are appended to a fixed origin, not resolved against it, so `//host/x`
 * stays the path `//host/x` and never names a host; absolute-form targets are parsed as given.
 */
export function requestTarget(target: string | undefined): URL | undefined {
  const raw = target ?? "/";
  try {
    return new URL(raw.startsWith("/") ? `http://localhost${raw}` : raw);
  } catch {
    return undefined;
  }
}
