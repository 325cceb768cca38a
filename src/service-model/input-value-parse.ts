/**
 * Parsing one input value in the 1.0 or 2.0 notation, with the choices input-notation.ts lists
 * where the spec is silent. Errors name the input and a stable rule, so the simulator's 422 and
 * the client's early refusal say the same thing.
 */
import {
  DIGITS,
  IGNORE_SPELLINGS,
  type InputNotation,
  InputNotationError,
  type InputValue,
  isTypePrefix,
  type Parsed,
} from "./input-value.ts";

export const MAX_ARRAY_DEPTH = 8;

const ARRAY_ELEMENT_TYPES = new Set<InputValue["type"]>(["text", "blank", "cred", "env", "array"]);

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
