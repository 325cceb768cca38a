import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import qs from "qs";
import { parameterError, SimError } from "./errors.ts";

/** A file part of a multipart body, placed at its bracketed field name in the params. */
export interface UploadedFile {
  kind: "file";
  filename: string;
  mimeType: string;
  content: Buffer;
  size: number;
}

export type Params = Record<string, unknown>;

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as UploadedFile).kind === "file";
}

const QS_OPTIONS = { depth: 20, arrayLimit: 100_000, parameterLimit: 100_000, allowPrototypes: false };

/**
 * Builds nested params from bracketed names the way the real (Rails-style) service does.
 * qs alone reads `inputs[][name]=A&inputs[][value]=1&inputs[][name]=B` as one hash of arrays;
 * Rails starts a new hash when a key repeats. So every `[]` is first rewritten to an explicit
 * index (`inputs[0][name]`, `inputs[0][value]`, `inputs[1][name]`), then qs builds the tree.
 */
export function buildParams(pairs: Iterable<readonly [string, unknown]>): Params {
  const elements = new Map<string, { index: number; keys: Set<string> }>();
  const indexed: Record<string, unknown> = {};
  for (const [key, value] of pairs) {
    const name = indexEmptyBrackets(key, elements);
    indexed[name] = value;
  }
  return qs.parse(indexed as Record<string, string>, QS_OPTIONS) as Params;
}

function indexEmptyBrackets(
  key: string,
  elements: Map<string, { index: number; keys: Set<string> }>,
): string {
  let at = key.indexOf("[]");
  while (at !== -1) {
    const prefix = key.slice(0, at);
    const rest = key.slice(at + 2);
    let state = elements.get(prefix);
    if (!state) {
      state = { index: -1, keys: new Set() };
      elements.set(prefix, state);
    }
    if (rest === "" || !rest.startsWith("[") || state.index === -1 || state.keys.has(rest)) {
      state.index += 1;
      state.keys = new Set();
    }
    state.keys.add(rest);
    key = `${prefix}[${state.index}]${rest}`;
    at = key.indexOf("[]", prefix.length);
  }
  return key;
}

/** Parses a query string or an urlencoded body (bracket notation). */
export function parseFormEncoded(text: string): Params {
  if (text === "") return {};
  return buildParams(new URLSearchParams(text));
}

/** Deep merge: `over` wins; hashes merge member by member. */
export function mergeParams(base: Params, over: Params): Params {
  const out: Params = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key === "__proto__") continue;
    const prior = out[key];
    out[key] = isPlainObject(prior) && isPlainObject(value) ? mergeParams(prior, value) : value;
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isUploadedFile(value);
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SimError(413, "ParameterError", `request body is larger than ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseMultipart(req: IncomingMessage): Promise<Params> {
  return new Promise((resolve, reject) => {
    const pairs: Array<[string, unknown]> = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_BODY_BYTES } });
    } catch (error) {
      reject(parameterError(`multipart body is malformed: ${(error as Error).message}`));
      return;
    }
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
    parser.on("close", () => resolve(buildParams(pairs)));
    req.pipe(parser);
  });
}

/**
 * Reads the request body by its content type: urlencoded (bracket notation), JSON (same
 * nesting), multipart (bracketed field names, file parts as UploadedFile). An empty body is
 * no params whatever the content type claims (one real client sends
 * `Content-Type: application/json` on bodiless GETs and DELETEs).
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
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw parameterError(`request body is not valid JSON (${(error as Error).message})`);
    }
    if (!isPlainObject(parsed)) throw parameterError("request body must be a JSON object");
    return parsed;
  }
  return parseFormEncoded(text);
}
