import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "undici";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import type { ControlPlaneInfo } from "../support/control-plane.testing.ts";

/** One server's answer to a raw request: what a client can see of it. */
export interface Answer {
  status: number;
  contentType: string;
  /** The Warning headers' texts (kubectl prints them). */
  warnings: string[];
  /** The body, parsed when it is JSON. */
  body: unknown;
}

/** What kubectl printed and how it exited. */
export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  body?: unknown;
  contentType?: string;
  accept?: string;
}

/** A server of the pair: raw HTTP as its admin, and the real kubectl with its own kubeconfig. */
export interface Endpoint {
  name: "devcluster" | "kube-apiserver";
  url: string;
  call(request: RawRequest): Promise<Answer>;
  kubectl(args: string[], stdin?: string): Promise<KubectlRun>;
  /** Reads a watch stream until the server ends it, bounded by `limitMs`. */
  stream(path: string, limitMs: number): Promise<{ status: number; lines: unknown[] }>;
}

/** Both servers, and a folder for the files kubectl reads. */
export interface Pair {
  dev: Endpoint;
  real: Endpoint;
  dir: string;
  close(): Promise<void>;
}

const USER_AGENT = "differential/v1.32.0";
/** No answer of this suite comes near it (the real /openapi/v2 is about 4 MB). */
const BODY_LIMIT = 32 * 1024 * 1024;

/** Starts a devcluster beside the run's real kube-apiserver; kubectl gets a kubeconfig and cache of each. */
export async function startPair(plane: ControlPlaneInfo): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), "differential-"));
  const cluster: DevCluster = await createDevCluster({
    tls: true,
    kubeconfigPath: join(dir, "dev.kubeconfig"),
  });
  await writeFile(join(dir, "real.kubeconfig"), plane.kubeconfig, { mode: 0o600 });
  const realUser = adminCertificate(plane.kubeconfig);
  const dev = endpoint("devcluster", cluster.url, dir, {
    ca: cluster.caCert,
    headers: { authorization: `Bearer ${cluster.token}` },
  });
  const real = endpoint("kube-apiserver", plane.url, dir, { ca: plane.ca, ...realUser, headers: {} });
  return {
    dev,
    real,
    dir,
    close: async () => {
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function adminCertificate(kubeconfig: string): { cert: string; key: string } {
  const config = parse(kubeconfig) as { users: { user: Record<string, string> }[] };
  const user = config.users[0]!.user;
  const decode = (field: string) => Buffer.from(user[field]!, "base64").toString("utf8");
  return { cert: decode("client-certificate-data"), key: decode("client-key-data") };
}

function endpoint(
  name: Endpoint["name"],
  url: string,
  dir: string,
  tls: { ca?: string; cert?: string; key?: string; headers: Record<string, string> },
): Endpoint {
  const { headers: auth, ...connect } = tls;
  const dispatcher = new Agent({ connect });
  const short = name === "devcluster" ? "dev" : "real";
  const send = (request: RawRequest, signal?: AbortSignal) =>
    dispatcher.request({
      origin: url,
      path: request.path,
      method: (request.method ?? "GET") as "GET",
      signal,
      headers: {
        ...auth,
        "user-agent": USER_AGENT,
        accept: request.accept ?? "application/json",
        ...(request.body === undefined ? {} : { "content-type": request.contentType ?? "application/json" }),
      },
      body:
        request.body === undefined || typeof request.body === "string"
          ? (request.body as string | undefined)
          : JSON.stringify(request.body),
    });
  return {
    name,
    url,
    call: async (request) => {
      const res = await send(request);
      const text = await boundedText(res.body, BODY_LIMIT);
      const header = (h: string) => res.headers[h];
      const warnings = [header("warning") ?? []].flat().map(String);
      return {
        status: res.statusCode,
        contentType: String(header("content-type") ?? ""),
        warnings,
        body: parseJson(text),
      };
    },
    stream: async (path, limitMs) => {
      const res = await send({ path }, AbortSignal.timeout(limitMs));
      const text = await boundedText(res.body, BODY_LIMIT);
      const lines = text.split("\n").filter((l) => l !== "");
      return { status: res.statusCode, lines: lines.map(parseJson) };
    },
    kubectl: (args, stdin) =>
      new Promise((resolve) => {
        const child = execFile(
          "kubectl",
          [
            `--kubeconfig=${join(dir, `${short}.kubeconfig`)}`,
            `--cache-dir=${join(dir, `${short}-cache`)}`,
            ...args,
          ],
          { timeout: 30_000, maxBuffer: BODY_LIMIT, cwd: dir },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
        // Always closed: a kubectl reading `-f -` must not wait for more.
        child.stdin!.end(stdin ?? "");
      }),
  };
}

async function boundedText(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new Error(`answer over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
