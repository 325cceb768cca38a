import type { RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { Agent } from "undici";
import type { ProblemLog } from "../telemetry/index.ts";
import { callOf, isEnvironmental, kubeTrouble, statusCauses, subjectOf } from "./kube-errors.ts";

/** An apiserver answer other than 2xx, with the Status object's reason, message and causes. */
export class KubeHttpError extends Error {
  override name = "KubeHttpError";
  readonly code: number;
  readonly reason: string | undefined;
  /** The Status object's message alone (or the start of a body that is not one). */
  readonly statusMessage: string;
  /** The reasons of the Status's `details.causes` (`NamespaceTerminating`, `FieldValueInvalid`). */
  readonly causes: readonly string[];
  constructor(code: number, method: string, path: string, body: string) {
    let reason: string | undefined;
    let message = body.slice(0, 500);
    let causes: string[] = [];
    try {
      const status = JSON.parse(body) as { reason?: string; message?: string; details?: unknown };
      reason = status.reason;
      message = status.message ?? message;
      causes = statusCauses(status);
    } catch {
      // not a Status object
    }
    super(`${method} ${path} -> ${code}: ${message}`);
    this.code = code;
    this.reason = reason;
    this.statusMessage = message;
    this.causes = causes;
  }
}

/** A request that got no answer (refused, reset, TLS, DNS): the network error is its cause. */
export class KubeRequestError extends Error {
  override name = "KubeRequestError";
  constructor(method: string, path: string, cause: unknown) {
    const code = (cause as { code?: unknown })?.code;
    const inner = (cause as { cause?: { code?: unknown; message?: unknown } })?.cause;
    const why = [
      typeof code === "string" ? code : inner?.code,
      (inner?.message ?? (cause as Error)?.message) as unknown,
    ]
      .filter((x) => typeof x === "string" && x)
      .join(" ");
    super(`${method} ${path} failed: ${why || String(cause)}`, { cause });
  }
}

/** Marks an error the ProblemLog has been told of: callers need not log it again. */
const REPORTED = Symbol("reported");

/** Whether the apiserver client reported this failure to the ProblemLog already. */
export function isReported(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { [REPORTED]?: boolean })[REPORTED] === true
  );
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
  private readonly problems: ProblemLog | undefined;
  private dispatcher: Agent | undefined;

  /**
   * `problems`: where failures the environment causes (RBAC, credentials, the network) are logged,
   * once per cause; the errors thrown are then marked (isReported) so callers log them no more.
   */
  constructor(kc: KubeConfig, problems?: ProblemLog) {
    this.kc = kc;
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig has no current cluster");
    this.base = cluster.server.replace(/\/+$/, "");
    this.problems = problems;
  }

  async call<T = unknown>(
    method: "GET" | "PATCH" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<T> {
    const res = await this.request(method, path, body, contentType);
    const text = await res.body.text();
    if (res.statusCode >= 300)
      throw this.failed(new KubeHttpError(res.statusCode, method, path, text), method, path);
    this.worked(method, path);
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
    if (res.statusCode >= 300)
      throw this.failed(new KubeHttpError(res.statusCode, method, path, await res.body.text()), method, path);
    await res.body.dump();
    this.worked(method, path);
  }

  /**
   * A GET whose answer is read as it comes (a watch, kube-watch.ts), until `signal` aborts it. Its
   * failures are not reported here: the informer that watches reports them, once per cause.
   */
  async stream(path: string, signal: AbortSignal) {
    try {
      return await this.dispatch("GET", path, undefined, "application/json", signal);
    } catch (error) {
      throw new KubeRequestError("GET", path, error);
    }
  }

  /** Reports a failure the environment causes (not a conflict, not one object gone) and marks it. */
  private failed<E extends Error>(error: E, method: string, path: string): E {
    if (!this.problems) return error;
    const call = callOf(method, path);
    const { failure, trouble } = kubeTrouble(call, error, this.base);
    if (!isEnvironmental(failure, call)) return error;
    this.problems.failed(trouble);
    (error as { [REPORTED]?: boolean })[REPORTED] = true;
    return error;
  }

  /** A call that worked clears what its kind of call was failing of (nothing to do while nothing fails). */
  private worked(method: string, path: string): void {
    if (this.problems && this.problems.open > 0) this.problems.succeeded(subjectOf(callOf(method, path)));
  }

  private async request(method: string, path: string, body: unknown, contentType: string) {
    try {
      return await this.dispatch(method, path, body, contentType);
    } catch (error) {
      throw this.failed(new KubeRequestError(method, path, error), method, path);
    }
  }

  private async dispatch(
    method: string,
    path: string,
    body: unknown,
    contentType: string,
    signal?: AbortSignal,
  ) {
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
    // The dispatcher's own request (undici's top-level `request` only parses the URL into these).
    const url = new URL(`${this.base}${path}`);
    return this.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as "GET",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }
}
