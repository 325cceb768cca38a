import { describe, expect, it } from "vitest";
import {
  formatInputValue,
  type InputNotation,
  type InputRule,
  type InputValue,
  type InputView,
  parseInputsParameter,
  parseInputValue,
  renderInputValue,
} from "./input-notation.ts";
import { good, text } from "./input-notation-cases.testing.ts";

describe("formatInputValue", () => {
  const cases: { reason: string; value: InputValue; want: string }[] = [
    { reason: "text", value: text("a b"), want: "text:a b" },
    { reason: "blank is the word", value: { type: "blank" }, want: "blank" },
    { reason: "ignore is the short word", value: { type: "ignore" }, want: "ignore" },
    { reason: "inherit sentinel", value: { type: "inherit" }, want: "inherit" },
    { reason: "env", value: { type: "env", variable: "V" }, want: "env:V" },
    { reason: "env with component", value: { type: "env", component: "c", variable: "V" }, want: "env:c:V" },
    { reason: "cred", value: { type: "cred", name: "C" }, want: "cred:C" },
    { reason: "key", value: { type: "key", name: "k" }, want: "key:k" },
    { reason: "key with cloud", value: { type: "key", name: "k", cloudId: "3" }, want: "key:k:3" },
    {
      reason: "array as JSON of typed strings",
      value: { type: "array", items: [text('say "hi"'), { type: "cred", name: "C" }] },
      want: 'array:["text:say \\"hi\\"","cred:C"]',
    },
  ];
  it.each(cases)("$reason", ({ value, want }) => {
    expect(formatInputValue(value)).toBe(want);
  });

  it.each(good.filter((c) => c.notation === "2.0"))("round-trips 2.0 parse→format→parse: $raw", ({ raw }) => {
    const first = parseInputValue("X", raw, "2.0");
    if (!first.ok) throw first.error;
    expect(parseInputValue("X", formatInputValue(first.value), "2.0")).toEqual(first);
  });

  it.each(good.filter((c) => c.notation === "1.0"))(
    "1.0 values format to equivalent 2.0: $raw",
    ({ raw }) => {
      const first = parseInputValue("X", raw, "1.0");
      if (!first.ok) throw first.error;
      expect(parseInputValue("X", formatInputValue(first.value), "2.0")).toEqual(first);
    },
  );
});

describe("renderInputValue", () => {
  const cases: { reason: string; value: InputValue; view: InputView; want: string }[] = [
    { reason: "default view: unset is text:", value: { type: "blank" }, view: "default", want: "text:" },
    { reason: "inputs view: unset is text:", value: { type: "blank" }, view: "inputs", want: "text:" },
    { reason: "2.0 view: unset is blank", value: { type: "blank" }, view: "inputs_2_0", want: "blank" },
    { reason: "default view: ignore", value: { type: "ignore" }, view: "default", want: "ignore:$ignore" },
    { reason: "2.0 view: ignore", value: { type: "ignore" }, view: "inputs_2_0", want: "ignore" },
    {
      reason: "inherit shows as ignore",
      value: { type: "inherit" },
      view: "default",
      want: "ignore:$ignore",
    },
    {
      reason: "inherit shows as ignore in 2.0",
      value: { type: "inherit" },
      view: "inputs_2_0",
      want: "ignore",
    },
    { reason: "text keeps its prefix", value: text("x"), view: "default", want: "text:x" },
    { reason: "cred same in both", value: { type: "cred", name: "C" }, view: "inputs", want: "cred:C" },
    {
      reason: "plain text array: 1.0 comma form",
      value: { type: "array", items: [text("a"), text("b")] },
      view: "default",
      want: "array:a,b",
    },
    {
      reason: "array with a comma in an element: JSON form",
      value: { type: "array", items: [text("a,b")] },
      view: "default",
      want: 'array:["text:a,b"]',
    },
    {
      reason: "array with a typed element: JSON form",
      value: { type: "array", items: [{ type: "cred", name: "C" }] },
      view: "default",
      want: 'array:["cred:C"]',
    },
    {
      reason: "array with text that looks typed: JSON form",
      value: { type: "array", items: [text("cred:C")] },
      view: "default",
      want: 'array:["text:cred:C"]',
    },
    {
      reason: "2.0 view: arrays always JSON",
      value: { type: "array", items: [text("a")] },
      view: "inputs_2_0",
      want: 'array:["text:a"]',
    },
  ];
  it.each(cases)("$reason", ({ value, view, want }) => {
    expect(renderInputValue(value, view)).toBe(want);
  });
});

describe("parseInputsParameter", () => {
  const goodParams: {
    reason: string;
    param: unknown;
    notation: InputNotation;
    want: [string, InputValue][];
  }[] = [
    {
      reason: "JSON legacy array → 1.0 semantics",
      param: [
        { name: "A", value: "x" },
        { name: "B", value: "" },
      ],
      notation: "1.0",
      want: [
        ["A", text("x")],
        ["B", { type: "inherit" }],
      ],
    },
    {
      reason: "qs reading of repeated inputs[][name]/[value] is zipped",
      param: [{ name: ["A", "B"], value: ["text:x", "cred:C"] }],
      notation: "1.0",
      want: [
        ["A", text("x")],
        ["B", { type: "cred", name: "C" }],
      ],
    },
    {
      reason: "qs index-keyed object (long arrays) → 1.0 in index order",
      param: { "1": { name: "B", value: "y" }, "0": { name: "A", value: "x" } },
      notation: "1.0",
      want: [
        ["A", text("x")],
        ["B", text("y")],
      ],
    },
    {
      reason: "hash → 2.0 semantics",
      param: { APP_ENV: "text:production", DB: "cred:DB_PASSWORD", OLD: "inherit" },
      notation: "2.0",
      want: [
        ["APP_ENV", text("production")],
        ["DB", { type: "cred", name: "DB_PASSWORD" }],
        ["OLD", { type: "inherit" }],
      ],
    },
  ];
  it.each(goodParams)("$reason", ({ param, notation, want }) => {
    const result = parseInputsParameter(param);
    if (!result.ok) throw result.error;
    expect(result.value.notation).toBe(notation);
    expect(result.value.inputs.map((i) => [i.name, i.value])).toEqual(want);
  });

  const badParams: { reason: string; param: unknown; rule: InputRule; says: RegExp }[] = [
    { reason: "missing", param: undefined, rule: "inputs_missing", says: /^inputs: .*required/ },
    { reason: "empty string (form inputs=)", param: "", rule: "inputs_missing", says: /required/ },
    { reason: "a bare string", param: "text:x", rule: "inputs_shape", says: /hash of NAME/ },
    { reason: "an empty hash", param: {}, rule: "inputs_empty", says: /at least one/ },
    { reason: "an empty array", param: [], rule: "inputs_empty", says: /at least one/ },
    { reason: "legacy element not an object", param: ["A"], rule: "inputs_shape", says: /inputs\[0\]/ },
    {
      reason: "legacy element without name",
      param: [{ value: "x" }],
      rule: "input_name",
      says: /input 0 needs a name/,
    },
    { reason: "legacy blank name", param: [{ name: " ", value: "x" }], rule: "input_name", says: /name/ },
    {
      reason: "legacy without value",
      param: [{ name: "A" }],
      rule: "not_a_string",
      says: /input A: .*value/,
    },
    {
      reason: "legacy names and values unbalanced",
      param: [{ name: ["A", "B"], value: ["x"] }],
      rule: "inputs_shape",
      says: /exactly one/,
    },
    {
      reason: "2.0 hash with an unprefixed value names the input",
      param: { A: "text:ok", B: "plain" },
      rule: "unprefixed_in_2_0",
      says: /^input B: /,
    },
    { reason: "2.0 hash with an empty value", param: { A: "" }, rule: "empty_in_2_0", says: /^input A: / },
    {
      reason: "2.0 hash with a nested hash",
      param: { A: { x: "1" }, B: "y" },
      rule: "not_a_string",
      says: /input A/,
    },
    {
      reason: "1.0 bad cred in legacy",
      param: [{ name: "A", value: "cred:" }],
      rule: "cred_name",
      says: /input A/,
    },
  ];
  it.each(badParams)("rejects $reason", ({ param, rule, says }) => {
    const result = parseInputsParameter(param);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.rule).toBe(rule);
    expect(result.error.message).toMatch(says);
  });
});
