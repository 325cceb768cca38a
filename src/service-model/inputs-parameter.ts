/**
 * The `inputs` parameter of multi_update: its shape (legacy pairs or a hash) picks the notation,
 * then every value goes through the same parser as a single value.
 */
import {
  DIGITS,
  type InputNotation,
  InputNotationError,
  type InputRule,
  type InputsUpdate,
  type NamedInput,
  type Parsed,
} from "./input-value.ts";
import { parseInputValue } from "./input-value-parse.ts";

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
