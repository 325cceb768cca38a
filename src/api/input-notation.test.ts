import { describe, expect, it } from "vitest";
import {
  formatInputValue,
  type InputNotation,
  InputNotationError,
  type InputRule,
  type InputValue,
  type InputView,
  MAX_ARRAY_DEPTH,
  parseInputsParameter,
  parseInputValue,
  renderInputValue,
} from "./input-notation.ts";

const text = (value: string): InputValue => ({ type: "text", value });

interface GoodCase {
  reason: string;
  notation: InputNotation;
  raw: string;
  want: InputValue;
}

const good: GoodCase[] = [
  { reason: "1.0 unprefixed value is text", notation: "1.0", raw: "production", want: text("production") },
  { reason: "1.0 text: prefix", notation: "1.0", raw: "text:production", want: text("production") },
  { reason: "1.0 text: alone is blank", notation: "1.0", raw: "text:", want: { type: "blank" } },
  { reason: "1.0 empty string means inherit", notation: "1.0", raw: "", want: { type: "inherit" } },
  { reason: "1.0 `blank` is just text", notation: "1.0", raw: "blank", want: text("blank") },
  { reason: "1.0 `inherit` is just text", notation: "1.0", raw: "inherit", want: text("inherit") },
  { reason: "1.0 non-type prefix is text", notation: "1.0", raw: "http://x:80/", want: text("http://x:80/") },
  { reason: "1.0 prefixes are case-sensitive", notation: "1.0", raw: "TEXT:x", want: text("TEXT:x") },
  { reason: "1.0 ignore", notation: "1.0", raw: "ignore", want: { type: "ignore" } },
  { reason: "1.0 $ignore", notation: "1.0", raw: "$ignore", want: { type: "ignore" } },
  { reason: "1.0 ignore:$ignore", notation: "1.0", raw: "ignore:$ignore", want: { type: "ignore" } },
  {
    reason: "1.0 env",
    notation: "1.0",
    raw: "env:PRIVATE_IP",
    want: { type: "env", variable: "PRIVATE_IP" },
  },
  {
    reason: "1.0 env with component",
    notation: "1.0",
    raw: "env:db tier:PRIVATE_IP",
    want: { type: "env", component: "db tier", variable: "PRIVATE_IP" },
  },
  {
    reason: "1.0 cred",
    notation: "1.0",
    raw: "cred:DB_PASSWORD",
    want: { type: "cred", name: "DB_PASSWORD" },
  },
  { reason: "1.0 key", notation: "1.0", raw: "key:deploy", want: { type: "key", name: "deploy" } },
  {
    reason: "1.0 key with cloud id",
    notation: "1.0",
    raw: "key:deploy:2",
    want: { type: "key", name: "deploy", cloudId: "2" },
  },
  {
    reason: "1.0 array is a comma list of text",
    notation: "1.0",
    raw: "array:a,b c,text:d",
    want: { type: "array", items: [text("a"), text("b c"), text("d")] },
  },
  { reason: "1.0 empty array", notation: "1.0", raw: "array:", want: { type: "array", items: [] } },
  { reason: "2.0 text", notation: "2.0", raw: "text:a:b", want: text("a:b") },
  { reason: "2.0 text keeps newlines", notation: "2.0", raw: "text:a\nb", want: text("a\nb") },
  { reason: "2.0 blank word", notation: "2.0", raw: "blank", want: { type: "blank" } },
  { reason: "2.0 text: is blank", notation: "2.0", raw: "text:", want: { type: "blank" } },
  { reason: "2.0 inherit sentinel", notation: "2.0", raw: "inherit", want: { type: "inherit" } },
  { reason: "2.0 ignore", notation: "2.0", raw: "ignore", want: { type: "ignore" } },
  { reason: "2.0 $ignore", notation: "2.0", raw: "$ignore", want: { type: "ignore" } },
  { reason: "2.0 ignore:$ignore", notation: "2.0", raw: "ignore:$ignore", want: { type: "ignore" } },
  { reason: "2.0 env", notation: "2.0", raw: "env:HOST", want: { type: "env", variable: "HOST" } },
  {
    reason: "2.0 env with component",
    notation: "2.0",
    raw: "env:app:HOST",
    want: { type: "env", component: "app", variable: "HOST" },
  },
  { reason: "2.0 cred", notation: "2.0", raw: "cred:TOKEN", want: { type: "cred", name: "TOKEN" } },
  { reason: "2.0 key", notation: "2.0", raw: "key:k1", want: { type: "key", name: "k1" } },
  {
    reason: "2.0 key + cloud",
    notation: "2.0",
    raw: "key:k1:10",
    want: { type: "key", name: "k1", cloudId: "10" },
  },
  { reason: "2.0 empty array", notation: "2.0", raw: "array:[]", want: { type: "array", items: [] } },
  {
    reason: "2.0 array of typed strings",
    notation: "2.0",
    raw: 'array:["text:a","cred:B","env:c:D","blank","text:"]',
    want: {
      type: "array",
      items: [
        text("a"),
        { type: "cred", name: "B" },
        { type: "env", component: "c", variable: "D" },
        { type: "blank" },
        { type: "blank" },
      ],
    },
  },
  {
    reason: "2.0 nested arrays are validated recursively",
    notation: "2.0",
    raw: 'array:["array:[\\"text:x\\"]"]',
    want: { type: "array", items: [{ type: "array", items: [text("x")] }] },
  },
  {
    reason: "2.0 JSON may carry whitespace",
    notation: "2.0",
    raw: 'array: [ "text:a" ]',
    want: { type: "array", items: [text("a")] },
  },
];

describe("parseInputValue: valid values", () => {
  it.each(good)("$reason: $raw", ({ notation, raw, want }) => {
    expect(parseInputValue("X", raw, notation)).toEqual({ ok: true, value: want });
  });
});

interface BadCase {
  reason: string;
  notation: InputNotation;
  raw: unknown;
  rule: InputRule;
  says: RegExp;
}

const nested = (depth: number): string =>
  depth === 0 ? "text:x" : `array:${JSON.stringify([nested(depth - 1)])}`;

const bad: BadCase[] = [
  {
    reason: "2.0 rejects the empty string",
    notation: "2.0",
    raw: "",
    rule: "empty_in_2_0",
    says: /empty value/,
  },
  {
    reason: "2.0 rejects an unprefixed value",
    notation: "2.0",
    raw: "production",
    rule: "unprefixed_in_2_0",
    says: /type prefix/,
  },
  {
    reason: "2.0 rejects an unknown prefix",
    notation: "2.0",
    raw: "http://x",
    rule: "unknown_type",
    says: /"http:"/,
  },
  {
    reason: "2.0 prefixes are case-sensitive",
    notation: "2.0",
    raw: "TEXT:x",
    rule: "unknown_type",
    says: /TEXT/,
  },
  { reason: "values must be strings", notation: "2.0", raw: 5, rule: "not_a_string", says: /string/ },
  {
    reason: "1.0 values must be strings too",
    notation: "1.0",
    raw: ["a"],
    rule: "not_a_string",
    says: /string/,
  },
  {
    reason: "ignore has three spellings only",
    notation: "2.0",
    raw: "ignore:x",
    rule: "ignore_spelling",
    says: /\$ignore/,
  },
  {
    reason: "1.0 ignore: with a payload",
    notation: "1.0",
    raw: "ignore:",
    rule: "ignore_spelling",
    says: /ignore/,
  },
  { reason: "env needs a variable", notation: "2.0", raw: "env:", rule: "env_variable", says: /variable/ },
  {
    reason: "env component not empty",
    notation: "1.0",
    raw: "env::X",
    rule: "env_variable",
    says: /component/,
  },
  {
    reason: "env variable not empty",
    notation: "2.0",
    raw: "env:c:",
    rule: "env_variable",
    says: /component/,
  },
  { reason: "cred needs a name", notation: "2.0", raw: "cred:", rule: "cred_name", says: /credential name/ },
  { reason: "key needs a name", notation: "1.0", raw: "key:", rule: "key_name", says: /key name/ },
  {
    reason: "key cloud id digits only",
    notation: "2.0",
    raw: "key:k:abc",
    rule: "key_cloud_id",
    says: /"abc"/,
  },
  { reason: "key cloud id not empty", notation: "2.0", raw: "key:k:", rule: "key_cloud_id", says: /digits/ },
  {
    reason: "2.0 array needs JSON",
    notation: "2.0",
    raw: "array:a,b",
    rule: "array_json",
    says: /JSON array/,
  },
  {
    reason: "2.0 array refuses single quotes",
    notation: "2.0",
    raw: "array:['text:a']",
    rule: "array_json",
    says: /double quotes/,
  },
  {
    reason: "2.0 array of non-strings",
    notation: "2.0",
    raw: "array:[1]",
    rule: "array_json",
    says: /typed strings/,
  },
  {
    reason: "2.0 array must be an array",
    notation: "2.0",
    raw: 'array:{"a":1}',
    rule: "array_json",
    says: /JSON/,
  },
  {
    reason: "2.0 array: alone is not JSON",
    notation: "2.0",
    raw: "array:",
    rule: "array_json",
    says: /JSON/,
  },
  {
    reason: "2.0 array elements need a prefix",
    notation: "2.0",
    raw: 'array:["a"]',
    rule: "unprefixed_in_2_0",
    says: /type prefix/,
  },
  {
    reason: "2.0 array elements cannot be ignore",
    notation: "2.0",
    raw: 'array:["ignore"]',
    rule: "array_element_type",
    says: /element 0 is ignore/,
  },
  {
    reason: "2.0 array elements cannot be inherit",
    notation: "2.0",
    raw: 'array:["text:a","inherit"]',
    rule: "array_element_type",
    says: /element 1 is inherit/,
  },
  {
    reason: "2.0 array elements cannot be keys",
    notation: "2.0",
    raw: 'array:["key:k"]',
    rule: "array_element_type",
    says: /element 0 is key/,
  },
  {
    reason: "2.0 array elements cannot be empty",
    notation: "2.0",
    raw: 'array:[""]',
    rule: "empty_in_2_0",
    says: /empty/,
  },
  {
    reason: "nested arrays are validated recursively",
    notation: "2.0",
    raw: 'array:["array:[\\"cred:\\"]"]',
    rule: "cred_name",
    says: /credential/,
  },
  {
    reason: "nesting is bounded",
    notation: "2.0",
    raw: nested(MAX_ARRAY_DEPTH + 1),
    rule: "array_depth",
    says: /at most/,
  },
  {
    reason: "1.0 array elements are text only",
    notation: "1.0",
    raw: "array:a,cred:B",
    rule: "array_element_type",
    says: /element 1.*text only/,
  },
  {
    reason: "1.0 array elements cannot be ignore",
    notation: "1.0",
    raw: "array:ignore",
    rule: "array_element_type",
    says: /text only/,
  },
  {
    reason: "1.0 array element empty",
    notation: "1.0",
    raw: "array:a,,b",
    rule: "array_element_empty",
    says: /1 is empty/,
  },
];

describe("parseInputValue: invalid values", () => {
  it.each(bad)("$reason: $raw", ({ notation, raw, rule, says }) => {
    const result = parseInputValue("DB_HOST", raw, notation);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(InputNotationError);
    expect(result.error.rule).toBe(rule);
    expect(result.error.input).toBe("DB_HOST");
    expect(result.error.message).toMatch(/^input DB_HOST: /);
    expect(result.error.message).toMatch(says);
  });
});

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
