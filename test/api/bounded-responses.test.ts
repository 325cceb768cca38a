import type { ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  createServiceApi,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ServiceApi,
} from "../../src/api/index.ts";
import { rejection } from "./helpers.ts";
import { grantToken, type LocalServer, startLocalServer } from "./local-server.ts";

/**
 * An Account's endpoint that answers with gigabytes: the client reads at most its limit and
 * memory stays flat. The bodies are generated as they are sent, never held.
 */

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const CHUNK = Buffer.alloc(64 * 1024, '[{"name":"x"},');

/** What the streaming server saw: bytes it managed to send, and the process's memory while it did. */
const stream = { sent: 0, peakRss: 0, peakHeap: 0 };

/** Writes `total` bytes of CHUNK, waiting for the socket to drain, until done or the client hangs up. */
async function streamLazily(res: ServerResponse, total: number): Promise<void> {
  let closed = false;
  let wake = () => {};
  res.on("close", () => {
    closed = true;
    wake();
  });
  let chunks = 0;
  while (stream.sent < total && !closed) {
    const ok = res.write(CHUNK);
    stream.sent += CHUNK.length;
    if (++chunks % 8 === 0) {
      const { rss, heapUsed } = process.memoryUsage();
      stream.peakRss = Math.max(stream.peakRss, rss);
      stream.peakHeap = Math.max(stream.peakHeap, heapUsed);
    }
    if (!ok && !closed) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        res.once("drain", resolve);
      });
    }
  }
  if (!closed) res.end();
}

let server: LocalServer;
let api: ServiceApi | undefined;

beforeAll(async () => {
  server = await startLocalServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/api/oauth2/") return grantToken(res);
    if (url.pathname === "/api/deployments" && req.method === "GET") {
      // Chunked: no Content-Length, so only counting the bytes can stop it.
      res.writeHead(200, { "content-type": "application/json" });
      return streamLazily(res, 4 * GiB);
    }
    if (url.pathname === "/api/deployments" && req.method === "POST") {
      res.writeHead(201, { location: "/api/deployments/1" });
      return streamLazily(res, 4 * GiB);
    }
    if (url.pathname === "/api/networks") {
      // A failure answer is bounded too, and is not retried however retryable its status.
      res.writeHead(503);
      return streamLazily(res, 4 * GiB);
    }
    if (url.pathname === "/api/clouds") {
      // Announced: refused before a byte of the body is read.
      res.writeHead(200, { "content-type": "application/json", "content-length": String(4 * GiB) });
      return streamLazily(res, 4 * GiB);
    }
    if (url.pathname === "/api/blob") {
      res.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" });
      res.end("x".repeat(Number(url.searchParams.get("bytes"))));
      return;
    }
    res.writeHead(404);
    res.end();
  });
});
afterEach(async () => {
  await api?.close();
  api = undefined;
  stream.sent = 0;
});
afterAll(() => server.close());

function client(maxResponseBytes?: number): ServiceApi {
  api = createServiceApi({
    endpoint: server.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "local-refresh-token" },
    rateLimit: false,
    transport: maxResponseBytes === undefined ? {} : { maxResponseBytes },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  });
  return api;
}

const gets = (path: string) => server.requests.filter((r) => r.path.startsWith(path)).length;

describe("an answer larger than the limit", () => {
  it("a 4 GiB chunked index fails with SVC_RESPONSE_TOO_LARGE and memory stays flat", async () => {
    const before = process.memoryUsage();
    stream.peakRss = before.rss;
    stream.peakHeap = before.heapUsed;
    const requestsBefore = gets("/api/deployments");
    const error = await rejection(client(16 * MiB).deployments.index());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "SVC_RESPONSE_TOO_LARGE",
      kind: "invalid",
      method: "GET",
      status: 200,
    });
    expect(error.message).toContain(`GET /api/deployments at ${server.url}`);
    expect(error.message).toContain("larger than the 16 MiB limit (more than 16 MiB arrived");
    // Not retried: the same call would get the same answer.
    expect(gets("/api/deployments") - requestsBefore).toBe(1);
    // The connection was cut soon after the limit, not read to its end.
    expect(stream.sent).toBeLessThan(64 * MiB);
    const rssGrowth = (stream.peakRss - before.rss) / MiB;
    const heapGrowth = (stream.peakHeap - before.heapUsed) / MiB;
    console.log(
      `4 GiB stream, 16 MiB limit: ${(stream.sent / MiB).toFixed(0)} MiB sent before the cut; ` +
        `peak RSS growth ${rssGrowth.toFixed(1)} MiB, peak heap growth ${heapGrowth.toFixed(1)} MiB`,
    );
    expect(rssGrowth).toBeLessThan(100);
    expect(heapGrowth).toBeLessThan(100);
  });

  it("an announced Content-Length over the limit is refused before the body is read", async () => {
    const error = await rejection(client(16 * MiB).clouds.index());
    expect(error).toMatchObject({ code: "SVC_RESPONSE_TOO_LARGE", kind: "invalid" });
    expect(error.message).toContain(`GET /api/clouds at ${server.url}`);
    expect(error.message).toContain(`(Content-Length ${4 * GiB} bytes;`);
    expect(stream.sent).toBeLessThan(64 * MiB);
  });

  it("the default limit is 64 MiB", async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * MiB);
    const error = await rejection(client().clouds.index());
    expect(error.message).toContain("larger than the 64 MiB limit");
  });

  it("a failure answer is bounded too, and not retried", async () => {
    const requestsBefore = gets("/api/networks");
    const error = await rejection(client(1 * MiB).networks.index());
    expect(error).toMatchObject({ code: "SVC_RESPONSE_TOO_LARGE", status: 503 });
    expect(gets("/api/networks") - requestsBefore).toBe(1);
  });

  it("a create whose answer is too large is outcomeUnknown: the object may exist", async () => {
    const error = await rejection(client(1 * MiB).deployments.create({ name: "web" }));
    expect(error).toMatchObject({ kind: "outcomeUnknown", code: "SVC_OUTCOME_UNKNOWN" });
    expect((error.cause as ApiError).code).toBe("SVC_RESPONSE_TOO_LARGE");
  });

  it("an answer of exactly the limit is read, one byte more is not", async () => {
    const { client: c } = client(1 * MiB);
    const read = await c.call({ method: "GET", path: "/api/blob", query: { bytes: 1 * MiB } });
    expect(read.body.length).toBe(1 * MiB);
    const error = await rejection(
      c.call({ method: "GET", path: "/api/blob", query: { bytes: 1 * MiB + 1 } }),
    );
    expect(error).toMatchObject({ code: "SVC_RESPONSE_TOO_LARGE" });
  });
});
