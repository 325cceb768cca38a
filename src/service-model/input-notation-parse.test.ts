import { describe, expect, it } from "vitest";
import {
  type InputNotation,
  InputNotationError,
  type InputRule,
  MAX_ARRAY_DEPTH,
  parseInputValue,
} from "./input-notation.ts";
import { good } from "./input-notation-cases.testing.ts";

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
