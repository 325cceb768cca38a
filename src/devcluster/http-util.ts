import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, tooLarge } from "./errors.ts";

/** The real server's request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

export async function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Keep reading past the limit (and drop it), so the client gets the 413 instead of a reset.
    if (size <= limit) chunks.push(chunk as Buffer);
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
