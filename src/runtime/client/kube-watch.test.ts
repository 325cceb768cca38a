import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import type { KubernetesObject } from "@kubernetes/client-node/dist/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawKube } from "./kube-raw.ts";
import { KubeWatch } from "./kube-watch.ts";

/** A stand-in apiserver: each watch request is answered by the test through `next`. */
const handlers: ((url: string, res: ServerResponse) => void)[] = [];
const seen: { url: string; auth: string | undefined }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url!, auth: req.headers.authorization });
  const handler = handlers.shift();
  if (handler) handler(req.url!, res);
  else res.writeHead(500).end();
});
let raw: RawKube;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: "c",
        server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        skipTLSVerify: true,
      },
    ],
    users: [{ name: "u", token: "t0k" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  raw = new RawKube(kc);
});

afterAll(async () => {
  await raw.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const object = (name: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, resourceVersion: "7", managedFields: [{}] },
});

/** Runs one watch to its end: the events handed over and what `done` got. */
function watchOnce(w: KubeWatch, params: Record<string, string | undefined> = {}) {
  const events: [string, KubernetesObject][] = [];
  let calls = 0;
  const finished = new Promise<unknown>((resolve) => {
    void w.watch(
      "/api/v1/configmaps",
      params,
      (phase, o) => events.push([phase, o]),
      (err) => {
        calls++;
        resolve(err);
      },
    );
  });
  return { events, finished, calls: () => calls };
}

describe("KubeWatch (ListWatch's watch over RawKube)", () => {
  it("asks with watch=true and the query, authenticated; hands over each line's event, slimmed but for errors", async () => {
    handlers.push((_url, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // One event split across writes, two in one write, a line that is not JSON.
      const added = JSON.stringify({ type: "ADDED", object: object("a") });
      res.write(added.slice(0, 10));
      res.write(`${added.slice(10)}\n${JSON.stringify({ type: "MODIFIED", object: object("b") })}\n`);
      res.write("not json\n");
      res.end(`${JSON.stringify({ type: "ERROR", object: { kind: "Status", code: 410 } })}\n`);
    });
    const slim = (o: KubernetesObject) => ({ ...o, metadata: { name: o.metadata?.name } });
    const w = watchOnce(new KubeWatch(raw, slim), { resourceVersion: "5", labelSelector: undefined });
    expect(await w.finished).toBeNull();
    expect(w.calls()).toBe(1);
    expect(w.events).toEqual([
      ["ADDED", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }],
      ["MODIFIED", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b" } }],
      ["ERROR", { kind: "Status", code: 410 }],
    ]);
    expect(seen.at(-1)).toEqual({
      url: "/api/v1/configmaps?watch=true&resourceVersion=5",
      auth: "Bearer t0k",
    });
  });

  it("an answer other than 200 is an error with its statusCode (ListWatch lists again on 410)", async () => {
    handlers.push((_url, res) => res.writeHead(410).end("{}"));
    const err = (await watchOnce(new KubeWatch(raw, (o) => o)).finished) as Error & { statusCode: number };
    expect(err.statusCode).toBe(410);
    expect(err.message).toBe("Gone");
  });

  it("a stream quiet for requestTimeoutMs ends in a TimeoutError (ListWatch watches again from where it was)", async () => {
    handlers.push((_url, res) => {
      res.writeHead(200);
      res.write("\n");
    });
    const watch = new KubeWatch(raw, (o) => o);
    watch.requestTimeoutMs = 200;
    const w = watchOnce(watch);
    const err = (await w.finished) as Error;
    expect(err.name).toBe("TimeoutError");
    await new Promise((r) => setTimeout(r, 50));
    expect(w.calls()).toBe(1);
  });

  it("a line longer than maxEventChars ends the watch with an error, reading no further", async () => {
    let writes = 0;
    handlers.push((_url, res) => {
      res.writeHead(200);
      const noise = "x".repeat(1024);
      const timer = setInterval(() => {
        writes++;
        if (!res.write(noise) || writes > 1000) clearInterval(timer);
      }, 1);
      res.on("close", () => clearInterval(timer));
    });
    const watch = new KubeWatch(raw, (o) => o);
    watch.maxEventChars = 8 * 1024;
    const err = (await watchOnce(watch).finished) as Error;
    expect(err.message).toMatch(/^a watch event of more than 8192 characters/);
    expect(writes).toBeLessThan(1000);
  });

  it("stops when its controller aborts; done is called once", async () => {
    handlers.push((_url, res) => {
      res.writeHead(200);
      res.write(`${JSON.stringify({ type: "ADDED", object: object("a") })}\n`);
    });
    let calls = 0;
    const events: string[] = [];
    const done = new Promise<void>((resolve) => {
      void new KubeWatch(raw, (o) => o)
        .watch(
          "/api/v1/configmaps",
          {},
          (phase) => events.push(phase),
          () => {
            calls++;
            resolve();
          },
        )
        .then(async (controller) => {
          while (events.length === 0) await new Promise((r) => setTimeout(r, 10));
          controller.abort();
        });
    });
    await done;
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(["ADDED"]);
    expect(calls).toBe(1);
  });

  it("a refused connection is the failure, naming the call", async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: "http://127.0.0.1:1", skipTLSVerify: true }],
      users: [{ name: "u" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    const refused = new RawKube(kc);
    const err = (await watchOnce(new KubeWatch(refused, (o) => o)).finished) as Error;
    expect(err.message).toMatch(/^GET \/api\/v1\/configmaps\?watch=true failed: ECONNREFUSED/);
    await refused.close();
  });
});
