import { describe, expect, it } from "vitest";
import { type Case, cause, causesFor, F } from "./schema-validate-cases.testing.ts";

// Schema validation of types, enums, strings and numbers.
const cases: Case[] = [
  {
    reason: "type string given to integer: TypeInvalid naming the JSON type, as the brief's example",
    schema: { type: "integer" },
    value: "string",
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "string": ${F} in body must be of type integer: "string"`,
      ),
    ],
  },
  {
    reason: "a float is not an integer",
    schema: { type: "integer" },
    value: 1.5,
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "number": ${F} in body must be of type integer: "number"`,
      ),
    ],
  },
  {
    reason: "an integral number is an integer (Go decodes 1.0 as int64-compatible)",
    schema: { type: "integer" },
    value: 3,
    want: [],
  },
  { reason: "an integer is a valid number", schema: { type: "number" }, value: 3, want: [] },
  {
    reason: "kube-openapi quirk: a non-numeric type with a supported format accepts an array",
    schema: { type: "string", format: "date-time" },
    value: ["x"],
    want: [],
  },
  {
    reason: "without a format the array is a type error",
    schema: { type: "string" },
    value: ["x"],
    want: [
      cause("FieldValueTypeInvalid", `Invalid value: "array": ${F} in body must be of type string: "array"`),
    ],
  },
  {
    reason: "boolean given to string",
    schema: { type: "string" },
    value: true,
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "boolean": ${F} in body must be of type string: "boolean"`,
      ),
    ],
  },
  {
    reason: "object given to array",
    schema: { type: "array", items: { type: "string" } },
    value: { a: 1 },
    want: [
      cause("FieldValueTypeInvalid", `Invalid value: "object": ${F} in body must be of type array: "object"`),
    ],
  },
  {
    reason: "null for a nullable field passes",
    schema: { type: "string", nullable: true },
    value: null,
    want: [],
  },
  {
    reason: "enum: Unsupported value listing the supported values",
    schema: { type: "string", enum: ["vpn", "internet"] },
    value: "x",
    want: [cause("FieldValueNotSupported", `Unsupported value: "x": supported values: "vpn", "internet"`)],
  },
  {
    reason: "enum of integers: values rendered as JSON then quoted",
    schema: { type: "integer", enum: [1, 2] },
    value: 3,
    want: [cause("FieldValueNotSupported", `Unsupported value: 3: supported values: "1", "2"`)],
  },
  {
    reason: "pattern (RE2) mismatch",
    schema: { type: "string", pattern: "^/dev/xvd[bcefghij]$" },
    value: "/dev/sda",
    want: [
      cause(
        "FieldValueInvalid",
        `Invalid value: "/dev/sda": ${F} in body should match '^/dev/xvd[bcefghij]$'`,
      ),
    ],
  },
  {
    reason: "pattern with RE2 inline flag matches",
    schema: { type: "string", pattern: "(?i)^abc$" },
    value: "ABC",
    want: [],
  },
  {
    reason: "maxLength: TooLong without the value",
    schema: { type: "string", maxLength: 3 },
    value: "abcd",
    want: [cause("FieldValueTooLong", "Too long: may not be more than 3 bytes")],
  },
  {
    reason: "maxLength counts characters, not bytes",
    schema: { type: "string", maxLength: 2 },
    value: "éé",
    want: [],
  },
  {
    reason: "minLength",
    schema: { type: "string", minLength: 3 },
    value: "ab",
    want: [cause("FieldValueInvalid", `Invalid value: "ab": ${F} in body should be at least 3 chars long`)],
  },
  {
    reason: "minimum (integer data prints integer bounds)",
    schema: { type: "integer", minimum: 1 },
    value: 0,
    want: [cause("FieldValueInvalid", `Invalid value: 0: ${F} in body should be greater than or equal to 1`)],
  },
  {
    reason: "exclusiveMinimum",
    schema: { type: "integer", minimum: 1, exclusiveMinimum: true },
    value: 1,
    want: [cause("FieldValueInvalid", `Invalid value: 1: ${F} in body should be greater than 1`)],
  },
  {
    reason: "maximum with float data",
    schema: { type: "number", maximum: 1.5 },
    value: 2.5,
    want: [
      cause("FieldValueInvalid", `Invalid value: 2.5: ${F} in body should be less than or equal to 1.5`),
    ],
  },
  {
    reason: "exclusiveMaximum",
    schema: { type: "integer", maximum: 10, exclusiveMaximum: true },
    value: 10,
    want: [cause("FieldValueInvalid", `Invalid value: 10: ${F} in body should be less than 10`)],
  },
  {
    reason: "multipleOf",
    schema: { type: "integer", multipleOf: 4 },
    value: 6,
    want: [cause("FieldValueInvalid", `Invalid value: 6: ${F} in body should be a multiple of 4`)],
  },
];

describe("schema validation (kube-openapi wording)", () => {
  it.each(cases)("$reason", ({ schema, value, want }) => {
    expect(causesFor(schema, value)).toEqual(want);
  });
});
