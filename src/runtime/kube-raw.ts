import type { RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { Agent, request } from "undici";

/** An apiserver answer other than 2xx, with the Status object's reason and message. */
export class KubeHttpError extends Error {
  override name = "KubeHttpError";
  readonly code: number;
  readonly reason: string | undefined;
  /** The Status object's message alone (or the start of a body that is not one). */
  readonly statusMessage: string;
  constructor(code: number, method: string, path: string, body: string) {
    let reason: string | undefined;
    let message = body.slice(0, 500);
    try {
      const status = JSON.parse(body) as { reason?: string; message?: string };
      reason = status.reason;
      message = status.message ?? message;
    } catch {
      // not a Status object
    }
    super(`${method} ${path} -> ${code}: ${message}`);
    this.code = code;
    this.reason = reason;
    this.statusMessage = message;
  }
}

/**
 * JSON calls to the apiserver on undici's request API with one keep-alive dispatcher.
 * The operator's hot path (status and metadata patches, a write or two per reconcile)
 * goes through it: client-node's generated clients cost several times more CPU per call
 * (fetch, web streams, model serialization). Authentication and TLS settings come from
 * the same KubeConfig (`applyToHTTPSOptions`, so tokens that rotate are re-read).
 */
export class RawKube {
  private readonly kc: KubeConfig;
  private readonly base: string;
  private dispatcher: Agent | undefined;

  constructor(kc: KubeConfig) {
    this.kc = kc;
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig has no current cluster");
    this.base = cluster.server.replace(/\/+$/, "");
  }

  async call<T = unknown>(
    method: "GET" | "PATCH" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<T> {
    const res = await this.request(method, path, body, contentType);
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new KubeHttpError(res.statusCode, method, path, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A call whose answer is not needed (only its status): the body is not parsed. */
  async send(
    method: "PATCH" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<void> {
    const res = await this.request(method, path, body, contentType);
    if (res.statusCode >= 300) throw new KubeHttpError(res.statusCode, method, path, await res.body.text());
    await res.body.dump();
  }

  private async request(method: string, path: string, body: unknown, contentType: string) {
    const opts: RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    this.dispatcher ??= new Agent({
      connect: {
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        pfx: opts.pfx,
        passphrase: opts.passphrase,
        servername: opts.servername,
        ...(opts.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: opts.rejectUnauthorized }),
      },
      keepAliveTimeout: 30_000,
    });
    const headers: Record<string, string> = { accept: "application/json" };
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString("base64")}`;
    if (body !== undefined) headers["content-type"] = contentType;
    return request(`${this.base}${path}`, {
      method: method as "GET",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.dispatcher,
    });
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }
}
