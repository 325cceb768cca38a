import qs from "qs";
import { parameterError } from "./errors.ts";

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

/**
 * Limits on what one request's parameters may hold (query string and body together are each held
 * to them). Far above any call of the API (the largest, a deployment's inputs, has a few hundred
 * entries and four levels); they keep a hostile body from costing more than a few milliseconds.
 */
export const PARAM_LIMITS = {
  /** Form fields, multipart parts, or JSON values (every member and element, nested ones too). */
  entries: 10_000,
  /** Levels of nesting: bracket pairs of a form name (`a[b][c]` is 2), or JSON arrays and objects. */
  depth: 20,
} as const;

function tooManyEntries(what: string): never {
  throw parameterError(`${what} has more than ${PARAM_LIMITS.entries} entries (the limit)`);
}

function tooDeep(name: string): never {
  const shown = name.length > 80 ? `${name.slice(0, 80)}...` : name;
  throw parameterError(`${shown} nests deeper than ${PARAM_LIMITS.depth} levels (the limit)`);
}

/**
 * qs is told not to build arrays (`parseArrays: false`): merging each `x[i]` into a sparse array
 * costs qs time proportional to i, which made a 16k-entry form take seconds. The hashes whose keys
 * are all indexes are turned into arrays afterwards, in one pass.
 */
const QS_OPTIONS = {
  depth: PARAM_LIMITS.depth,
  strictDepth: true,
  parseArrays: false,
  allowPrototypes: false,
};

/**
 * Builds nested params from bracketed names the way the real (Rails-style) service does.
 * qs alone reads `inputs[][name]=A&inputs[][value]=1&inputs[][name]=B` as one hash of arrays;
 * Rails starts a new hash when a key repeats. So every `[]` is first rewritten to an explicit
 * index (`inputs[0][name]`, `inputs[0][value]`, `inputs[1][name]`), then qs builds the tree.
 * More than PARAM_LIMITS entries, or a name nesting deeper, is a 400 naming the limit.
 */
export function buildParams(pairs: Iterable<readonly [string, unknown]>, what = "the request"): Params {
  const elements = new Map<string, { index: number; keys: Set<string> }>();
  const indexed: Record<string, unknown> = {};
  let count = 0;
  for (const [key, value] of pairs) {
    if (++count > PARAM_LIMITS.entries) tooManyEntries(what);
    if (bracketCount(key) > PARAM_LIMITS.depth) tooDeep(key);
    const name = indexEmptyBrackets(key, elements);
    indexed[name] = value;
  }
  let tree: unknown;
  try {
    tree = qs.parse(indexed as Record<string, string>, QS_OPTIONS);
  } catch {
    // Only strictDepth throws, and bracketCount refused every name that could trip it.
    tooDeep("a parameter name");
  }
  return indexesToArrays(tree) as Params;
}

function bracketCount(key: string): number {
  let n = 0;
  for (let at = key.indexOf("["); at !== -1; at = key.indexOf("[", at + 1)) n++;
  return n;
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

/** Array indexes small enough that an object's own keys list them in ascending order. */
const INDEX = /^(?:0|[1-9]\d{0,8})$/;

/** Hashes whose keys are all indexes become arrays of their values in index order (holes dropped). */
function indexesToArrays(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  for (const key of keys) value[key] = indexesToArrays(value[key]);
  if (keys.length > 0 && keys.every((k) => INDEX.test(k))) return keys.map((k) => value[k]);
  return value;
}

/** Parses a query string or an urlencoded body (bracket notation). */
export function parseFormEncoded(text: string, what = "the request"): Params {
  if (text === "") return {};
  return buildParams(new URLSearchParams(text), what);
}

/**
 * Holds a parsed JSON body to PARAM_LIMITS (the parse itself never recurses; the code that reads
 * params does). Iterative, so no nesting can overflow the stack here.
 */
export function checkJsonLimits(root: unknown): void {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  let count = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= PARAM_LIMITS.depth) tooDeep("the JSON body");
    const children = Array.isArray(value) ? value : Object.values(value);
    count += children.length;
    if (count > PARAM_LIMITS.entries) tooManyEntries("the JSON body");
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
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
