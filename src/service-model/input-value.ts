/**
 * The typed input value both notations parse into, the error a malformed one raises, and the
 * spellings the parser and the renderer must agree on (a value renders in the 1.0 form only if
 * it reads back the same).
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

export const TYPE_PREFIXES = ["text", "env", "cred", "key", "array", "ignore"] as const;
type TypePrefix = (typeof TYPE_PREFIXES)[number];
export const IGNORE_SPELLINGS = new Set(["ignore", "$ignore", "ignore:$ignore"]);
export const DIGITS = /^\d+$/;

export function isTypePrefix(prefix: string): prefix is TypePrefix {
  return (TYPE_PREFIXES as readonly string[]).includes(prefix);
}
