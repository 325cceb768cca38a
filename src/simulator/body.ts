import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { nestingDepth } from "../lib/http/index.ts";
import { parameterError, SimError } from "./errors.ts";
import {
  buildParams,
  checkJsonLimits,
  isPlainObject,
  PARAM_LIMITS,
  type Params,
  parseFormEncoded,
  type UploadedFile,
} from "./params.ts";

export const MAX_BODY_BYTES = 20 * 1024 * 1024;

function tooLarge(limit: number): SimError {
  return new SimError(413, "ParameterError", `request body is larger than ${limit} bytes (the limit)`);
}

function cutOff(): SimError {
  return parameterError("the request body ended before its declared length (connection closed)");
}

/** Reads the whole body, refusing (and closing the connection) past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge(limit));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", () => reject(cutOff()));
    req.on("close", () => {
      if (!req.complete) reject(cutOff());
    });
  });
}

/**
 * Parts a multipart body may have. The service's multipart calls (a stored script attachment's
 * create and update) take two: `[content]` and `[filename]`.
 */
export const MAX_MULTIPART_PARTS = 100;

/**
 * Parses a multipart body as it streams in, held to MAX_BODY_BYTES in all (not per part) and to
 * MAX_MULTIPART_PARTS parts. Past the byte limit nothing more is read: the refusal is answered
 * with `Connection: close` (the body is incomplete), so the rest never costs memory. Past the
 * parts limit the rest (within the byte limit) is read and dropped, then refused.
 */
function parseMultipart(req: IncomingMessage): Promise<Params> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"]) > MAX_BODY_BYTES) {
      reject(tooLarge(MAX_BODY_BYTES));
      return;
    }
    const pairs: Array<[string, unknown]> = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { parts: MAX_MULTIPART_PARTS } });
    } catch (error) {
      reject(parameterError(`multipart body is malformed: ${(error as Error).message}`));
      return;
    }
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) refuse(tooLarge(MAX_BODY_BYTES));
    };
    const refuse = (error: SimError) => {
      reject(error);
      req.off("data", count);
      req.unpipe(parser);
      req.pause();
    };
    // Past the parts limit the rest is read and dropped (still counted against the byte limit)
    // before the refusal: answered while the client still sends, the close would reach it as a
    // reset rather than the 400 that says why.
    parser.on("partsLimit", () => {
      req.unpipe(parser);
      req.once("end", () =>
        reject(parameterError(`the multipart body has more than ${MAX_MULTIPART_PARTS} parts (the limit)`)),
      );
      req.resume();
    });
    parser.on("field", (name, value) => pairs.push([name, value]));
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const content = Buffer.concat(chunks);
        const file: UploadedFile = {
          kind: "file",
          filename: info.filename ?? "",
          mimeType: info.mimeType,
          content,
          size: content.length,
        };
        pairs.push([name, file]);
      });
    });
    parser.on("error", (error: Error) =>
      reject(parameterError(`multipart body is malformed: ${error.message}`)),
    );
    parser.on("close", () => {
      try {
        resolve(buildParams(pairs, "the multipart body"));
      } catch (error) {
        reject(error);
      }
    });
    req.on("close", () => {
      if (!req.complete) reject(cutOff());
    });
    // Counted before the parser sees a chunk: the one past the limit never reaches it.
    req.on("data", count);
    req.pipe(parser);
  });
}

/**
 * Reads the request body by its content type: urlencoded (bracket notation), JSON (same
 * nesting), multipart (bracketed field names, file parts as UploadedFile), each held to
 * PARAM_LIMITS. An empty body is no params whatever the content type claims (one real client
 * sends `Content-Type: application/json` on bodiless GETs and DELETEs).
 */
export async function parseBody(req: IncomingMessage): Promise<Params> {
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) return parseMultipart(req);
  const length = req.headers["content-length"];
  if (length === "0" || (length === undefined && req.headers["transfer-encoding"] === undefined)) {
    req.resume();
    return {};
  }
  const raw = await readBody(req);
  if (raw.length === 0) return {};
  const text = raw.toString("utf8");
  if (type.includes("json")) {
    if (text.trim() === "") return {};
    // Refused before parsing: JSON.parse would build every level of a hostile nesting first.
    if (nestingDepth(text, PARAM_LIMITS.depth) > PARAM_LIMITS.depth) {
      throw parameterError(`the JSON body nests deeper than ${PARAM_LIMITS.depth} levels (the limit)`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw parameterError(`request body is not valid JSON (${(error as Error).message})`);
    }
    if (!isPlainObject(parsed)) throw parameterError("request body must be a JSON object");
    checkJsonLimits(parsed);
    return parsed;
  }
  return parseFormEncoded(text, "the form body");
}
