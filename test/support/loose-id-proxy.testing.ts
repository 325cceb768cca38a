import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/** Hop-by-hop headers a proxy does not pass on (RFC 9110, 7.6.1), and the length it recomputes. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);

function passed(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP.has(name)) out[name] = value;
  return out;
}

/**
 * A service in front of `target` that reads ids loosely, as a Rails `find` casts `"03"` to 3: it
 * answers `/api/deployments/03` with deployment 3, whose self link says `/api/deployments/3`.
 * What the operator makes of an href the service shows under another self link is tested through it.
 */
export async function startLooseIdProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const path = (req.url ?? "/").replace(/\/0+(\d+)(?=$|[/?])/g, "/$1");
      const answer = await request(`${target}${path}`, {
        method: req.method as "GET",
        headers: passed(req.headers),
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, passed(answer.headers));
      res.end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
