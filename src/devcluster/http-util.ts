import type { IncomingMessage, ServerResponse } from "node:http";
import { nestingDepth } from "../lib/http/index.ts";
import { ApiError, badRequest, tooLarge } from "./errors.ts";

/** The real server's request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
/**
 * Deepest nesting of arrays and objects a text body may have. The real server's JSON decoder
 * stops at 10,000; the store, admission and managed fields here recurse per level, so the limit is
 * lower, still far above any Kubernetes object.
 */
export const MAX_BODY_DEPTH = 1_000;
/** Past this many bytes an oversized body is no longer drained for the 413: the socket is closed. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

/** The body as text (JSON or YAML), refused with 400 when it nests deeper than MAX_BODY_DEPTH. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const text = (await readBodyBytes(req, limit)).toString("utf8");
  if (nestingDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw badRequest(`the request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`);
  }
  return text;
}

export async function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      // Keep reading past the limit (and drop it), so the client gets the 413 instead of a reset;
      // a body far past it is cut off instead, so nobody can keep the server reading forever.
      if (size <= limit) chunks.push(chunk as Buffer);
      else if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        break;
      }
    }
  } catch {
    // The client went away mid-body: its failure, not the server's (and nobody reads the answer).
    throw badRequest("the request body ended before its declared length (connection closed)");
  }
  if (size > limit) throw tooLarge();
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (error.plainText !== undefined) {
    res.writeHead(error.code, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
    });
    res.end(error.plainText);
    return;
  }
  sendJson(res, error.code, error.status);
}

/** `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (what `kubectl get` asks for). */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((part) => {
    const params = part.split(";").map((p) => p.trim());
    return (
      params.includes("as=Table") &&
      (params.includes("g=meta.k8s.io") || !params.some((p) => p.startsWith("g=")))
    );
  });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
