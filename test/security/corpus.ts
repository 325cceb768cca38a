// The hostile request corpus of issue 22 item 1, sent over raw sockets (node:net, node:tls) because
// HTTP clients refuse to send most of it. Every request asks for `Connection: close`, so an answered
// exchange ends when the server closes; one the server never answers ends at EXCHANGE_TIMEOUT_MS.
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

export interface Target {
  name: string;
  host: string;
  port: number;
  tls?: boolean;
  /** Calls whose body the server parses: each body item is sent to each of them. */
  bodies: Array<{ method: string; path: string; headers?: Record<string, string>; label?: string }>;
}

export interface Outcome {
  /** `<target> <item>` (and the body call, for body items). */
  name: string;
  /** The first status the server answered, if it answered at all. */
  status?: number;
  /** The first bytes of the answer, for failure messages. */
  head: string;
}

type Send = (socket: Socket, answered: () => boolean) => Promise<void>;

const EXCHANGE_TIMEOUT_MS = 45_000;
const HUGE_BYTES = 64 * 1024 * 1024;

function write(socket: Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve();
    if (socket.write(data)) return resolve();
    const done = () => {
      socket.off("drain", done);
      socket.off("close", done);
      resolve();
    };
    socket.on("drain", done);
    socket.on("close", done);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, "Host: corpus.test", "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

const raw =
  (bytes: string | Buffer): Send =>
  async (socket) => {
    await write(socket, bytes);
  };

/** Streams `bytes` of filler in 64 KiB chunks until sent, answered or closed. */
async function stream(socket: Socket, answered: () => boolean, bytes: number, chunked: boolean) {
  const chunk = Buffer.alloc(64 * 1024, "a");
  const frame = chunked
    ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
    : chunk;
  for (let sent = 0; sent < bytes && !answered() && !socket.destroyed; sent += chunk.length) {
    await write(socket, frame);
  }
}

/** Requests that need no body call: every target gets them. */
function plainItems(): Array<[string, Send]> {
  return [
    ["GET //", raw(head("GET", "//"))],
    ["GET //host/path", raw(head("GET", "//evil.example/metrics"))],
    ["absolute-form target", raw(head("GET", "http://evil.example/nowhere"))],
    ["%zz escapes", raw(head("GET", "/%zz/%E0%A4%A/api/%"))],
    ["64 KB path", raw(head("GET", `/${"a".repeat(64 * 1024)}`))],
    ["asterisk target", raw(head("GET", "*"))],
    ["garbage request line", raw("\x00\x01\x02 GARBAGE \xff\r\n\r\n")],
    ["unknown HTTP version", raw("GET / HTTP/7.1\r\nHost: x\r\n\r\n")],
    ["no Host header", raw("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")],
    ["oversized header", raw(head("GET", "/", { "X-Big": "b".repeat(64 * 1024) }))],
    [
      "3000 headers",
      raw(head("GET", "/", Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, "v"])))),
    ],
    ["NUL in a header", raw("GET / HTTP/1.1\r\nHost: x\r\nX-Nul: a\x00b\r\n\r\n")],
    [
      "Content-Length and Transfer-Encoding",
      raw(head("POST", "/", { "Content-Length": 4, "Transfer-Encoding": "chunked" })),
    ],
    ["two Content-Lengths", raw(head("POST", "/", { "Content-Length": "4\r\nContent-Length: 5" }) + "abcd")],
    ["bad chunk size", raw(`${head("POST", "/", { "Transfer-Encoding": "chunked" })}zz\r\nabc\r\n`)],
    ["pipelined garbage", raw(`GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n`)],
    [
      "disconnect mid-headers",
      async (socket) => {
        await write(socket, "GET / HTTP/1.1\r\nHost: x\r\nX-Half: ");
        socket.destroy();
      },
    ],
  ];
}

/** Requests sent to each body call of a target (its authentication headers included). */
function bodyItems(call: Target["bodies"][number]): Array<[string, Send]> {
  const h = (type: string, extra: Record<string, string | number>) =>
    head(call.method, call.path, { ...call.headers, "Content-Type": type, ...extra });
  const body = (type: string, text: string): Send =>
    raw(h(type, { "Content-Length": Buffer.byteLength(text) }) + text);
  const form100k = Array.from({ length: 100_000 }, (_, i) => `a[][b]=${i}`).join("&");
  const json100k = `{"a":[${Array.from({ length: 100_000 }, (_, i) => i).join(",")}]}`;
  const deepJson = `{"a":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`;
  return [
    [
      "huge declared body (1 GiB)",
      async (socket, answered) => {
        await write(socket, h("application/json", { "Content-Length": 1024 ** 3 }));
        await stream(socket, answered, HUGE_BYTES, false);
        socket.end();
      },
    ],
    [
      "huge chunked body",
      async (socket, answered) => {
        await write(socket, h("application/json", { "Transfer-Encoding": "chunked" }));
        await stream(socket, answered, HUGE_BYTES, true);
        socket.end();
      },
    ],
    ["deeply nested JSON (1M levels)", body("application/json", deepJson)],
    ["100k-entry JSON", body("application/json", json100k)],
    ["100k-entry form", body("application/x-www-form-urlencoded", form100k)],
    [
      "100k-entry multipart",
      body(
        "multipart/form-data; boundary=xx",
        `${'--xx\r\nContent-Disposition: form-data; name="a[]"\r\n\r\n1\r\n'.repeat(100_000)}--xx--\r\n`,
      ),
    ],
    ["malformed JSON", body("application/json", '{"a": [1, 2')],
    ["malformed multipart", body("multipart/form-data", "--nothing")],
    [
      "disconnect mid-body",
      async (socket) => {
        await write(socket, h("application/json", { "Content-Length": 1024 * 1024 }));
        await write(socket, Buffer.alloc(64 * 1024, "["));
        socket.destroy();
      },
    ],
  ];
}

function exchange(target: Target, name: string, send: Send): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket: Socket = target.tls
      ? tlsConnect({ host: target.host, port: target.port, rejectUnauthorized: false })
      : netConnect(target.port, target.host);
    let answer = "";
    socket.on("data", (d: Buffer) => {
      if (answer.length < 2048) answer += d.toString("latin1");
    });
    socket.on("error", () => {});
    const timer = setTimeout(() => socket.destroy(), EXCHANGE_TIMEOUT_MS);
    socket.once("close", () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(answer)?.[1];
      resolve({
        name: `${target.name} ${name}`,
        ...(status ? { status: Number(status) } : {}),
        head: answer.slice(0, 300),
      });
    });
    socket.once(target.tls ? "secureConnect" : "connect", () => {
      send(socket, () => answer.length > 0).catch(() => socket.destroy());
    });
  });
}

export interface Upload extends Outcome {
  /** Bytes of the body handed to the socket before the server answered or closed. */
  sent: number;
  /** Bytes of the whole body. */
  total: number;
}

/**
 * Sends a chunked multipart body of `parts` file parts of `partBytes` each (nothing declares its
 * size, so only counting it as it streams can refuse it), one part per chunk, until the whole body
 * is sent or the server answers or closes.
 */
export async function multipartUpload(
  target: Target,
  call: Target["bodies"][number],
  parts: number,
  partBytes: number,
): Promise<Upload> {
  const disposition = 'Content-Disposition: form-data; name="f[]"; filename="f"';
  const part = Buffer.concat([
    Buffer.from(`--xx\r\n${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.alloc(partBytes, "a"),
    Buffer.from("\r\n"),
  ]);
  const chunk = (data: Buffer) =>
    Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
  const last = Buffer.from("--xx--\r\n");
  const total = parts * part.length + last.length;
  let sent = 0;
  const outcome = await exchange(target, `${parts} parts of ${partBytes} bytes`, async (socket, answered) => {
    const type = "multipart/form-data; boundary=xx";
    await write(
      socket,
      head(call.method, call.path, { ...call.headers, "Content-Type": type, "Transfer-Encoding": "chunked" }),
    );
    const going = () => !answered() && !socket.destroyed;
    for (let i = 0; i < parts && going(); i++) {
      await write(socket, chunk(part));
      sent += part.length;
    }
    if (!going()) return;
    await write(socket, Buffer.concat([chunk(last), Buffer.from("0\r\n\r\n")]));
    sent += last.length;
  });
  return { ...outcome, sent, total };
}

/**
 * A client that sends its headers one byte every 200 ms and never finishes: the server must close
 * it (408, or just the socket) once its headers timeout passes. Answers how it ended.
 */
export function slowHeaders(target: Target): Promise<Outcome> {
  const text = "GET / HTTP/1.1\r\nHost: corpus.test\r\nX-Slow: ";
  return exchange(target, "slow headers", async (socket, answered) => {
    for (let i = 0; !answered() && !socket.destroyed; i++) {
      await write(socket, i < text.length ? text[i]! : "s");
      await sleep(200);
    }
  });
}

/** Sends the whole corpus to each target, one exchange at a time, and answers every outcome. */
export async function sendCorpus(targets: Target[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const target of targets) {
    for (const [name, send] of plainItems()) outcomes.push(await exchange(target, name, send));
    for (const call of target.bodies) {
      for (const [name, send] of bodyItems(call)) {
        const label = call.label ?? `${call.method} ${call.path}`;
        outcomes.push(await exchange(target, `${label} ${name}`, send));
      }
    }
  }
  return outcomes;
}

/**
 * Outcomes that are neither a 4xx nor a connection closed without an answer (nor one of `also`,
 * for a server whose job is another answer, as the wrong-region host's 302 to the same path).
 */
export function unacceptable(outcomes: Outcome[], also: number[] = []): Outcome[] {
  return outcomes.filter(
    (o) => o.status !== undefined && (o.status < 400 || o.status > 499) && !also.includes(o.status),
  );
}
