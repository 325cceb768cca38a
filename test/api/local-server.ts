import { once } from "node:events";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** A small HTTP(S) server on 127.0.0.1 for tests that need an answer the simulator never gives. */
export interface LocalServer {
  url: string;
  port: number;
  /** Every request seen: method, path and headers. */
  requests: { method: string; path: string; headers: IncomingMessage["headers"] }[];
  close(): Promise<void>;
}

/**
 * `maxHeaderSize`: the largest request head accepted (Node's default is 16 KiB), for a test that
 * must see how large a client's headers grow rather than have the server refuse them.
 */
export async function startLocalServer(
  handler: Handler,
  tls?: { cert: string; key: string },
  options: { maxHeaderSize?: number } = {},
): Promise<LocalServer> {
  const requests: LocalServer["requests"] = [];
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      await handler(req, res, Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  };
  const server = tls
    ? createHttpsServer({ ...tls, ...options }, listener)
    : createHttpServer(options, listener);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The token grant's answer every test server gives (any refresh token is accepted). */
export function grantToken(res: ServerResponse, accessToken = "local-access-token-0001"): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ access_token: accessToken, expires_in: 7200, token_type: "bearer" }));
}
