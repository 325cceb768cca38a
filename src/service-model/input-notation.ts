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

export {
  type InputNotation,
  InputNotationError,
  type InputRule,
  type InputsUpdate,
  type InputValue,
  type InputView,
  type NamedInput,
  type Parsed,
} from "./input-value.ts";
export { formatInputValue, renderInputValue } from "./input-value-format.ts";
export { MAX_ARRAY_DEPTH, parseInputValue } from "./input-value-parse.ts";
export { parseInputsParameter } from "./inputs-parameter.ts";
