import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createSafeServer, requestTarget, SERVER_LIMITS } from "./safe-server.ts";

const failures: string[] = [];
const server = createSafeServer(
  async (req, res) => {
    if (req.url === "/sync") throw new Error("sync boom");
    if (req.url === "/async") {
      await Promise.resolve();
      throw new Error("async boom");
    }
    if (req.url === "/late") {
      res.writeHead(200);
      res.write("partial");
      throw new Error("late boom");
    }
    res.end("ok");
  },
  { onError: (error) => failures.push((error as Error).message) },
);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw bytes and answers everything the server wrote before closing. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += String(d);
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", () => {});
    socket.end(bytes);
  });
}

describe("createSafeServer", () => {
  it("turns a synchronous or asynchronous throw into a 500 and one onError call, and keeps serving", async () => {
    failures.length = 0;
    const sync = await fetch(`${base}/sync`);
    expect([sync.status, await sync.text()]).toEqual([500, "internal server error (see the server log)\n"]);
    expect((await fetch(`${base}/async`)).status).toBe(500);
    expect(failures).toEqual(["sync boom", "async boom"]);
    expect(await (await fetch(`${base}/`)).text()).toBe("ok");
  });

  it("closes the connection when the answer had already started", async () => {
    failures.length = 0;
    await expect(fetch(`${base}/late`).then((r) => r.text())).rejects.toThrow();
    expect(failures).toEqual(["late boom"]);
    expect(await (await fetch(`${base}/`)).text()).toBe("ok");
  });

  it("sets the timeouts, the header size limit and the connection cap explicitly", () => {
    expect(server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
    expect(server.maxConnections).toBe(SERVER_LIMITS.maxConnections);
    expect(server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
    // Set from the options but missing from @types/node's Server.
    expect((server as unknown as { maxHeaderSize: number }).maxHeaderSize).toBe(SERVER_LIMITS.maxHeaderSize);
  });

  it("answers a malformed request line 400 and oversized headers 431 without calling the handler", async () => {
    failures.length = 0;
    expect(await raw("GARBAGE\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    const big = `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(SERVER_LIMITS.maxHeaderSize)}\r\n\r\n`;
    expect(await raw(big)).toMatch(/^HTTP\/1\.1 431 /);
    expect(failures).toEqual([]);
  });
});

describe("requestTarget", () => {
  it("keeps `//host/x` a path and parses absolute-form targets", () => {
    expect(requestTarget("//")?.pathname).toBe("//");
    expect(requestTarget("//evil.example/metrics")?.pathname).toBe("//evil.example/metrics");
    expect(requestTarget("//evil.example/metrics")?.host).toBe("localhost");
    expect(requestTarget("http://x/metrics?a=1")?.pathname).toBe("/metrics");
    expect(requestTarget("/%zz?name[]=a")?.searchParams.getAll("name[]")).toEqual(["a"]);
    expect(requestTarget(undefined)?.pathname).toBe("/");
  });

  it("answers undefined for a target that is not a URL", () => {
    expect(requestTarget("*")).toBeUndefined();
    expect(requestTarget("::")).toBeUndefined();
  });
});
