// "Hostile tenants and hostile services, second round", item 5: the devcluster (HTTPS, as the CLI
// serves it) drops a connection that never starts TLS after its handshake timeout, closes
// connections past its cap at once and serves again once they go, and closes a watch whose client
// stops reading while a reading watch keeps its events. Limits are set small through the options.
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { createDevCluster, type DevCluster, type DevClusterOptions } from "../../src/devcluster/index.ts";

const TOKEN = "security-limits-token-0123456789";
const auth = { Authorization: `Bearer ${TOKEN}` };
const clusters: DevCluster[] = [];
// The server's certificate is self-signed; what is tested here is not TLS.
const agent = new Agent({ connect: { rejectUnauthorized: false } });
afterAll(async () => {
  for (const cluster of clusters) await cluster.close();
  await agent.close();
});

async function start(options: DevClusterOptions = {}): Promise<DevCluster> {
  const cluster = await createDevCluster({ tls: true, token: TOKEN, ...options });
  clusters.push(cluster);
  return cluster;
}

const portOf = (cluster: DevCluster) => Number(new URL(cluster.url).port);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 50 ms until it holds; false if it still does not after `boundMs` (generous). */
async function eventually(check: () => boolean | Promise<boolean>, boundMs = 5_000): Promise<boolean> {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(50)) {
    if (await check()) return true;
  }
  return check();
}

/** A TCP connection that never sends a byte (no TLS ClientHello), and whether the server closed it. */
async function idleSocket(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  const socket = netConnect(port, "127.0.0.1");
  let closed = false;
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
  });
  await new Promise((resolve) => socket.once("connect", resolve).once("close", resolve));
  return { socket, closed: () => closed };
}

async function namespacesStatus(cluster: DevCluster): Promise<number | string> {
  try {
    const res = await request(`${cluster.url}/api/v1/namespaces`, { dispatcher: agent, headers: auth });
    await res.body.dump();
    return res.statusCode;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

describe("the devcluster's connection limits", () => {
  it("closes a TCP connection that never starts TLS once the handshake timeout passes", async () => {
    const cluster = await start({ serverLimits: { headersTimeoutMs: 300 } });
    const idle = await idleSocket(portOf(cluster));
    expect(await eventually(idle.closed)).toBe(true);
    expect(await namespacesStatus(cluster)).toBe(200);
  });

  it("closes connections past its cap at once, and answers again once the others go", async () => {
    const cap = 10;
    const cluster = await start({ serverLimits: { maxConnections: cap } });
    const sockets: Array<Awaited<ReturnType<typeof idleSocket>>> = [];
    for (let i = 0; i < 2 * cap; i++) sockets.push(await idleSocket(portOf(cluster)));
    expect(await eventually(() => sockets.filter((s) => s.closed()).length >= cap)).toBe(true);
    // The first `cap` are held (their handshake timeout is the default 10 s), the rest were closed.
    expect(sockets.map((s) => s.closed())).toEqual([...Array(cap).fill(false), ...Array(cap).fill(true)]);
    expect(await namespacesStatus(cluster)).not.toBe(200);

    for (const { socket } of sockets) socket.destroy();
    expect(await eventually(async () => (await namespacesStatus(cluster)) === 200)).toBe(true);
  });
});

/** A watch over TLS that reads nothing after its request: its bytes pile up on the server. */
async function stalledWatch(
  cluster: DevCluster,
  path: string,
): Promise<{ socket: Socket; ended: Promise<string> }> {
  const socket = tlsConnect({ host: "127.0.0.1", port: portOf(cluster), rejectUnauthorized: false });
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("secureConnect", resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: devcluster\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
  socket.pause();
  let text = "";
  socket.on("data", (d: Buffer) => {
    text += d.toString("latin1");
  });
  const ended = new Promise<string>((resolve) => socket.once("close", () => resolve(text)));
  return { socket, ended };
}

describe("the devcluster's slow watchers", () => {
  it("closes a watch whose client does not read, while a reading watch gets every event", async () => {
    const lines: string[] = [];
    const cluster = await start({
      watchUnsentLimitBytes: 256 * 1024,
      log: (_level, message) => lines.push(message),
    });
    const configmaps = `${cluster.url}/api/v1/namespaces/default/configmaps`;
    const created = await request(configmaps, {
      method: "POST",
      dispatcher: agent,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ metadata: { name: "big" }, data: { k: "" } }),
    });
    const { metadata } = (await created.body.json()) as { metadata: { resourceVersion: string } };
    const watchPath = `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${metadata.resourceVersion}`;

    const stalled = await stalledWatch(cluster, watchPath);
    const reading = await request(`${cluster.url}${watchPath}`, { dispatcher: agent, headers: auth });
    let received = "";
    reading.body.setEncoding("utf8").on("data", (text: string) => {
      received += text;
    });
    const events = () => received.split("\n").filter((line) => line !== "");

    // Updates of 512 KiB each until the stalled watch is closed (the kernel's socket buffers take
    // a few MiB before anything piles up in the server), at most 64 (32 MiB).
    let updates = 0;
    const cut = () => lines.includes("watch closed: its client is not reading");
    for (; updates < 64 && !cut(); updates++) {
      const res = await request(`${configmaps}/big`, {
        method: "PATCH",
        dispatcher: agent,
        headers: { ...auth, "content-type": "application/merge-patch+json" },
        body: JSON.stringify({ data: { k: `${updates}`.padEnd(512 * 1024, "x") } }),
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }

    // The stalled client, reading at last, finds its stream ended short of the last update.
    stalled.socket.resume();
    const stalledText = await Promise.race([stalled.ended, sleep(5_000).then(() => "(still open)")]);
    expect(stalledText).not.toBe("(still open)");
    expect(stalledText.split('"type":"MODIFIED"').length - 1).toBeLessThan(updates);
    // The reading watch got every update and is still open.
    expect(await eventually(() => events().length === updates && received.endsWith("\n"))).toBe(true);
    const last = JSON.parse(events().at(-1)!) as { type: string; object: { data: { k: string } } };
    expect([last.type, last.object.data.k.length]).toEqual(["MODIFIED", 512 * 1024]);
    expect(last.object.data.k.startsWith(`${updates - 1}x`)).toBe(true);
    expect(reading.body.destroyed).toBe(false);
    reading.body.destroy();
  });
});
