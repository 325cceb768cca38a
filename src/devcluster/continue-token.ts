/**
 * List continue tokens in the real server's format (base64url of `{"v","rv","start"}`), and the
 * real server's words for one that is not a token.
 */
import { badRequest } from "./errors.ts";
import { isObj } from "./meta.ts";

/** What a continue token holds: the list's resourceVersion and the last key returned. */
export interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString("base64url");
}

/** Reads a continue token, refusing one that is not as the real server words it (Go's errors). */
export function decodeContinue(text: string): ContinueToken {
  const invalid = (why: string) => badRequest(`invalid continue token: continue key is not valid: ${why}`);
  const bad = /[^A-Za-z0-9_-]/.exec(text) ?? (text.length % 4 === 1 ? { index: text.length - 1 } : null);
  if (bad) throw invalid(`illegal base64 data at input byte ${bad.index}`);
  const bytes = Buffer.from(text, "base64url");
  let token: ContinueToken;
  try {
    token = JSON.parse(bytes.toString("utf8")) as ContinueToken;
  } catch {
    // Bytes, as Go reads them: one character per byte.
    throw invalid(goJsonError(bytes.toString("latin1")));
  }
  if (!isObj(token) || token.v !== "meta.k8s.io/v1")
    throw invalid("server does not recognize this encoded version");
  if (typeof token.rv !== "number" || typeof token.start !== "string" || token.start === "")
    throw invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  return token;
}

/** encoding/json's message for text that does not parse, for its most common cases. */
function goJsonError(text: string): string {
  const first = text.trimStart()[0];
  if (first === undefined) return "unexpected end of JSON input";
  if (!/[{["tfn0-9-]/.test(first))
    return `invalid character ${goQuoteChar(first)} looking for beginning of value`;
  return "unexpected end of JSON input";
}

const GO_ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\\": "\\\\",
};

/** A byte as Go's encoding/json quotes it in an error (strconv.Quote of it, in single quotes). */
function goQuoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const escaped = GO_ESCAPES[c];
  if (escaped) return `'${escaped}'`;
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, "0")}'`;
  if (code >= 0x80 && code < 0xa0) return `'\\u${code.toString(16).padStart(4, "0")}'`;
  return `'${c}'`;
}
