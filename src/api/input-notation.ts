/**
 * Input values of spec 4.13: parse and validate the 1.0 and 2.0 notations into one typed
 * value, format a typed value back to 2.0, render it for the inputs index views, and read
 * the `inputs` parameter of `multi_update`.
 *
 * Pure functions, no I/O. Shared by the API client (which formats what users write in
 * `spec.inputs`) and the simulator (which validates what clients send).
 *
 * The two notations:
 * - 1.0 (legacy `inputs[][name]` / `inputs[][value]` pairs): an unprefixed value is text,
 *   the empty string means "inherit", array elements are text only (`array:a,b,c`).
 * - 2.0 (hash `inputs[NAME]=value`): every value carries a type prefix and a colon, except
 *   the bare words `blank`, `ignore`, `$ignore` and the sentinel `inherit`; the empty string
 *   is invalid; an array is `array:` followed by a JSON array of typed strings.
 *
 * Choices where the spec is silent (also in docs/service-api-notes.md, "Input values"):
 * - Type prefixes are case-sensitive. In 1.0 a value whose text before the first colon is
 *   not a type name (`http://x`, `TEXT:x`) is plain text; in 2.0 it is an error.
 * - `env:A:B` is component `A`, variable `B` (split at the first colon); `key:K:1` is key
 *   `K` on cloud `1` (cloud id digits only, so a key name cannot contain a colon).
 * - 2.0 array elements may be text, blank, cred, env or a nested array (the spec's list,
 *   plus blank because `text:` is a text value); `ignore`, `inherit` and `key` are refused.
 *   Nesting is limited to {@link MAX_ARRAY_DEPTH} levels.
 * - 1.0 array elements are text: a leading `text:` is removed, any other type prefix is an
 *   error, and an empty element (`a,,b`) is an error. `array:` alone is an empty array.
 * - `inherit` is a write-only instruction (drop the value set at this level). Index views
 *   never hold it; {@link renderInputValue} shows it as ignore ("not present, inherits").
 */

export type InputNotation = "1.0" | "2.0";

/** Index views of spec 4.13 / 2.2: `default` and `inputs` use 1.0 spellings, `inputs_2_0` uses 2.0. */
export type InputView = "default" | "inputs" | "inputs_2_0";

export type InputValue =
  | { type: "text"; value: string }
  /** Present and empty (`text:` / `blank`). */
  | { type: "blank" }
  /** Not present at this level; the inherited value applies (`ignore`, `$ignore`, `ignore:$ignore`). */
  | { type: "ignore" }
  /** Write-only: use the inherited value (2.0 `inherit`, 1.0 empty string). */
  | { type: "inherit" }
  /** An environment value: `env:<variable>` or `env:<component>:<variable>`. */
  | { type: "env"; variable: string; component?: string }
  | { type: "cred"; name: string }
  /** A private SSH key: `key:<name>` or `key:<name>:<cloud_id>`. */
  | { type: "key"; name: string; cloudId?: string }
  | { type: "array"; items: InputValue[] };

/** The rule a value broke; stable strings for callers that branch on them. */
export type InputRule =
  | "not_a_string"
  | "empty_in_2_0"
  | "unprefixed_in_2_0"
  | "unknown_type"
  | "ignore_spelling"
  | "env_variable"
  | "cred_name"
  | "key_name"
  | "key_cloud_id"
  | "array_json"
  | "array_element_type"
  | "array_element_empty"
  | "array_depth"
  | "inputs_missing"
  | "inputs_empty"
  | "inputs_shape"
  | "input_name";

export class InputNotationError extends Error {
  override name = "InputNotationError";
  readonly code = "INVALID_INPUT_VALUE";
  /** The input's name ("" when the problem is the `inputs` parameter as a whole). */
  readonly input: string;
  readonly rule: InputRule;

  constructor(input: string, rule: InputRule, detail: string) {
    super(input === "" ? `inputs: ${detail}` : `input ${input}: ${detail}`);
    this.input = input;
    this.rule = rule;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: InputNotationError };

export interface NamedInput {
  name: string;
  value: InputValue;
}

export interface InputsUpdate {
  notation: InputNotation;
  inputs: NamedInput[];
}

export const MAX_ARRAY_DEPTH = 8;

const TYPE_PREFIXES = ["text", "env", "cred", "key", "array", "ignore"] as const;
type TypePrefix = (typeof TYPE_PREFIXES)[number];
const IGNORE_SPELLINGS = new Set(["ignore", "$ignore", "ignore:$ignore"]);
const ARRAY_ELEMENT_TYPES = new Set<InputValue["type"]>(["text", "blank", "cred", "env", "array"]);
const DIGITS = /^\d+$/;

/**
 * Parses one input value in the given notation. `name` only labels errors.
 * Never throws; a malformed value yields `{ok: false, error}` naming the input and the rule.
 */
export function parseInputValue(name: string, raw: unknown, notation: InputNotation): Parsed<InputValue> {
  try {
    return { ok: true, value: parseOrThrow(name, raw, notation, 0) };
  } catch (error) {
    if (error instanceof InputNotationError) return { ok: false, error };
    throw error;
  }
}

function parseOrThrow(name: string, raw: unknown, notation: InputNotation, depth: number): InputValue {
  if (typeof raw !== "string")
    throw new InputNotationError(name, "not_a_string", "the value must be a string");
  if (raw === "") {
    if (notation === "1.0") return { type: "inherit" };
    throw new InputNotationError(
      name,
      "empty_in_2_0",
      "an empty value is not allowed in the 2.0 notation (use `inherit`, `blank` or `text:`)",
    );
  }
  if (IGNORE_SPELLINGS.has(raw)) return { type: "ignore" };
  if (notation === "2.0") {
    if (raw === "blank") return { type: "blank" };
    if (raw === "inherit") return { type: "inherit" };
  }
  const colon = raw.indexOf(":");
  const prefix = colon < 0 ? undefined : raw.slice(0, colon);
  if (prefix === undefined || !isTypePrefix(prefix)) {
    if (notation === "1.0") return { type: "text", value: raw };
    throw new InputNotationError(
      name,
      prefix === undefined ? "unprefixed_in_2_0" : "unknown_type",
      prefix === undefined
        ? "a 2.0 value must start with a type prefix and a colon (text:, env:, cred:, key:, array:) " +
            "or be one of blank, ignore, $ignore, inherit"
        : `unknown type prefix "${prefix}:" (allowed: text, env, cred, key, array, ignore)`,
    );
  }
  const rest = raw.slice(colon + 1);
  switch (prefix) {
    case "text":
      return rest === "" ? { type: "blank" } : { type: "text", value: rest };
    case "ignore":
      throw new InputNotationError(
        name,
        "ignore_spelling",
        "ignore is written `ignore`, `$ignore` or `ignore:$ignore`",
      );
    case "env":
      return parseEnv(name, rest);
    case "cred":
      if (rest === "") throw new InputNotationError(name, "cred_name", "cred: needs a credential name");
      return { type: "cred", name: rest };
    case "key":
      return parseKey(name, rest);
    case "array":
      return notation === "1.0" ? parseArray10(name, rest) : parseArray20(name, rest, depth);
  }
}

function isTypePrefix(prefix: string): prefix is TypePrefix {
  return (TYPE_PREFIXES as readonly string[]).includes(prefix);
}

function parseEnv(name: string, rest: string): InputValue {
  const colon = rest.indexOf(":");
  if (colon < 0) {
    if (rest === "") throw new InputNotationError(name, "env_variable", "env: needs a variable name");
    return { type: "env", variable: rest };
  }
  const component = rest.slice(0, colon);
  const variable = rest.slice(colon + 1);
  if (component === "" || variable === "") {
    throw new InputNotationError(
      name,
      "env_variable",
      "env: is written env:<variable> or env:<component>:<variable>, both parts not empty",
    );
  }
  return { type: "env", component, variable };
}

function parseKey(name: string, rest: string): InputValue {
  const colon = rest.indexOf(":");
  const keyName = colon < 0 ? rest : rest.slice(0, colon);
  if (keyName === "") throw new InputNotationError(name, "key_name", "key: needs a key name");
  if (colon < 0) return { type: "key", name: keyName };
  const cloudId = rest.slice(colon + 1);
  if (!DIGITS.test(cloudId)) {
    throw new InputNotationError(
      name,
      "key_cloud_id",
      `key: is written key:<name> or key:<name>:<cloud_id> with a digits-only cloud id, got "${cloudId}"`,
    );
  }
  return { type: "key", name: keyName, cloudId };
}

function parseArray10(name: string, rest: string): InputValue {
  if (rest === "") return { type: "array", items: [] };
  const items = rest.split(",").map((element, index): InputValue => {
    if (element === "") {
      throw new InputNotationError(name, "array_element_empty", `array element ${index} is empty`);
    }
    const colon = element.indexOf(":");
    const prefix = colon < 0 ? "" : element.slice(0, colon);
    if (prefix === "text") {
      const text = element.slice(colon + 1);
      return text === "" ? { type: "blank" } : { type: "text", value: text };
    }
    if (isTypePrefix(prefix) || IGNORE_SPELLINGS.has(element)) {
      throw new InputNotationError(
        name,
        "array_element_type",
        `array element ${index}: 1.0 array elements are text only (use the 2.0 notation for typed elements)`,
      );
    }
    return { type: "text", value: element };
  });
  return { type: "array", items };
}

function parseArray20(name: string, rest: string, depth: number): InputValue {
  if (depth >= MAX_ARRAY_DEPTH) {
    throw new InputNotationError(name, "array_depth", `arrays nest at most ${MAX_ARRAY_DEPTH} levels`);
  }
  let elements: unknown;
  try {
    elements = JSON.parse(rest);
  } catch {
    elements = undefined;
  }
  if (!Array.isArray(elements) || elements.some((element) => typeof element !== "string")) {
    throw new InputNotationError(
      name,
      "array_json",
      'array: must be followed by a JSON array of typed strings, e.g. array:["text:a","cred:B"] ' +
        "(double quotes only)",
    );
  }
  const items = elements.map((element: string, index): InputValue => {
    const item = parseOrThrow(name, element, "2.0", depth + 1);
    if (!ARRAY_ELEMENT_TYPES.has(item.type)) {
      throw new InputNotationError(
        name,
        "array_element_type",
        `array element ${index} is ${item.type}; elements must be text, blank, cred, env or array`,
      );
    }
    return item;
  });
  return { type: "array", items };
}

/** Formats a typed value in the 2.0 notation; `parseInputValue(n, formatInputValue(v), "2.0")` gives `v` back. */
export function formatInputValue(value: InputValue): string {
  switch (value.type) {
    case "text":
      return `text:${value.value}`;
    case "blank":
      return "blank";
    case "ignore":
      return "ignore";
    case "inherit":
      return "inherit";
    case "env":
      return value.component === undefined
        ? `env:${value.variable}`
        : `env:${value.component}:${value.variable}`;
    case "cred":
      return `cred:${value.name}`;
    case "key":
      return value.cloudId === undefined ? `key:${value.name}` : `key:${value.name}:${value.cloudId}`;
    case "array":
      return `array:${JSON.stringify(value.items.map(formatInputValue))}`;
  }
}

/**
 * Renders a stored value for an inputs index (or a deployment's inputs view).
 * `default` / `inputs`: unset (blank) is `text:`, ignore is `ignore:$ignore`; an array of
 * plain text without commas uses the 1.0 comma form, any other array the 2.0 JSON form.
 * `inputs_2_0`: the 2.0 notation (`blank`, `ignore`).
 */
export function renderInputValue(value: InputValue, view: InputView): string {
  if (view === "inputs_2_0") return value.type === "inherit" ? "ignore" : formatInputValue(value);
  switch (value.type) {
    case "blank":
      return "text:";
    case "ignore":
    case "inherit":
      return "ignore:$ignore";
    case "array": {
      const plain = value.items.every((item) => item.type === "text" && isPlain10Element(item.value));
      if (!plain) return formatInputValue(value);
      return `array:${value.items.map((item) => (item.type === "text" ? item.value : "")).join(",")}`;
    }
    default:
      return formatInputValue(value);
  }
}

/** True when `text` reads back as the same text element of a 1.0 comma list. */
function isPlain10Element(text: string): boolean {
  if (text.includes(",") || IGNORE_SPELLINGS.has(text)) return false;
  const colon = text.indexOf(":");
  return colon < 0 || !isTypePrefix(text.slice(0, colon));
}

/**
 * Reads the `inputs` parameter of multi_update as parsed from a form (qs bracket notation)
 * or a JSON body, and validates every value. The shape picks the notation (spec 4.13):
 * - an array of `{name, value}` (legacy) → 1.0. Also accepted: qs's reading of repeated
 *   `inputs[][name]=A&inputs[][value]=x&inputs[][name]=B...` as `[{name:[A,B], value:[x,y]}]`,
 *   and an object keyed by indexes (`{"0": {name, value}}`, what qs makes of long arrays).
 * - a hash `{NAME: value}` → 2.0.
 * Yields the name/value pairs in request order, or the first error.
 */
export function parseInputsParameter(param: unknown): Parsed<InputsUpdate> {
  if (param === undefined || param === null || param === "") {
    return fail("", "inputs_missing", "the inputs parameter is required");
  }
  const legacy = legacyPairs(param);
  if (legacy !== undefined) return legacy.ok ? parsePairs(legacy.value, "1.0") : legacy;
  if (typeof param !== "object" || Array.isArray(param)) {
    return fail(
      "",
      "inputs_shape",
      "inputs must be a hash of NAME => value (2.0) or an array of {name, value} (1.0)",
    );
  }
  const pairs = Object.entries(param as Record<string, unknown>).map(([name, value]) => ({ name, value }));
  return parsePairs(pairs, "2.0");
}

interface RawPair {
  name: unknown;
  value: unknown;
}

/** The legacy pairs if `param` has the legacy shape, undefined if it is a 2.0 hash (or not an enumerable). */
function legacyPairs(param: unknown): Parsed<RawPair[]> | undefined {
  let elements: unknown[];
  if (Array.isArray(param)) {
    elements = param;
  } else if (typeof param === "object" && param !== null) {
    const entries = Object.entries(param);
    const indexed =
      entries.length > 0 &&
      entries.every(([key, value]) => DIGITS.test(key) && typeof value === "object" && value !== null);
    if (!indexed) return undefined;
    elements = entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, value]) => value);
  } else {
    return undefined;
  }
  const pairs: RawPair[] = [];
  for (const [index, element] of elements.entries()) {
    if (typeof element !== "object" || element === null || Array.isArray(element)) {
      return fail("", "inputs_shape", `inputs[${index}] must be a {name, value} pair`);
    }
    const { name, value } = element as Record<string, unknown>;
    if (Array.isArray(name) || Array.isArray(value)) {
      const names = Array.isArray(name) ? name : [name];
      const values = Array.isArray(value) ? value : [value];
      if (names.length !== values.length) {
        return fail("", "inputs_shape", "every inputs[][name] needs exactly one inputs[][value]");
      }
      for (const [i, n] of names.entries()) pairs.push({ name: n, value: values[i] });
    } else {
      pairs.push({ name, value });
    }
  }
  return { ok: true, value: pairs };
}

function parsePairs(pairs: RawPair[], notation: InputNotation): Parsed<InputsUpdate> {
  if (pairs.length === 0) return fail("", "inputs_empty", "inputs must name at least one input");
  const inputs: NamedInput[] = [];
  for (const [index, pair] of pairs.entries()) {
    if (typeof pair.name !== "string" || pair.name.trim() === "") {
      return fail("", "input_name", `input ${index} needs a name (a non-blank string)`);
    }
    if (pair.value === undefined && notation === "1.0") {
      return fail(pair.name, "not_a_string", "inputs[][value] is required");
    }
    const parsed = parseInputValue(pair.name, pair.value, notation);
    if (!parsed.ok) return parsed;
    inputs.push({ name: pair.name, value: parsed.value });
  }
  return { ok: true, value: { notation, inputs } };
}

function fail(input: string, rule: InputRule, detail: string): { ok: false; error: InputNotationError } {
  return { ok: false, error: new InputNotationError(input, rule, detail) };
}
