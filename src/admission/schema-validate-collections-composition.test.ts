import { describe, expect, it } from "vitest";
import { type Case, cause, causesFor, F } from "./schema-validate-cases.testing.ts";

// Schema validation of arrays, objects, int-or-string, anyOf/oneOf/allOf/not, list types and embedded resources.
const cases: Case[] = [
  {
    reason: "minItems",
    schema: { type: "array", items: { type: "string" }, minItems: 1 },
    value: [],
    want: [cause("FieldValueInvalid", `Invalid value: 0: ${F} in body should have at least 1 items`)],
  },
  {
    reason: "maxItems: TooMany with the actual count",
    schema: { type: "array", items: { type: "string" }, maxItems: 1 },
    value: ["a", "b"],
    want: [cause("FieldValueTooMany", "Too many: 2: must have at most 1 items")],
  },
  {
    reason: "uniqueItems",
    schema: { type: "array", items: { type: "string" }, uniqueItems: true },
    value: ["a", "a"],
    want: [cause("FieldValueInvalid", `Invalid value: "": ${F} in body shouldn't contain duplicates`)],
  },
  {
    reason: "item errors are indexed",
    schema: {
      type: "array",
      items: { type: "object", properties: { cidr: { type: "string", format: "cidr" } } },
    },
    value: [{ cidr: "10.0.0.0/8" }, { cidr: "nope" }],
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "nope": ${F}[1].cidr in body must be of type cidr: "nope"`,
        `${F}[1].cidr`,
      ),
    ],
  },
  {
    reason: "minProperties",
    schema: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 },
    value: {},
    want: [cause("FieldValueInvalid", `Invalid value: 0: ${F} in body should have at least 1 properties`)],
  },
  {
    reason: "maxProperties: TooMany",
    schema: { type: "object", additionalProperties: { type: "string" }, maxProperties: 1 },
    value: { a: "1", b: "2" },
    want: [cause("FieldValueTooMany", "Too many: 2: must have at most 1 items")],
  },
  {
    reason: "additionalProperties as a schema validates map values (path spec.field.key)",
    schema: { type: "object", additionalProperties: { type: "string" } },
    value: { good: "x", bad: 1 },
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "integer": ${F}.bad in body must be of type string: "integer"`,
        `${F}.bad`,
      ),
    ],
  },
  {
    reason: "required properties",
    schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    value: {},
    want: [cause("FieldValueRequired", "Required value", `${F}.name`)],
  },
  {
    reason: "int-or-string accepts an integer",
    schema: { "x-kubernetes-int-or-string": true },
    value: 80,
    want: [],
  },
  {
    reason: "int-or-string accepts a string",
    schema: { "x-kubernetes-int-or-string": true },
    value: "http",
    want: [],
  },
  {
    reason: "int-or-string rejects a boolean, naming both types",
    schema: { "x-kubernetes-int-or-string": true },
    value: true,
    want: [
      cause(
        "FieldValueTypeInvalid",
        `Invalid value: "boolean": ${F} in body must be of type integer,string: "boolean"`,
      ),
    ],
  },
  {
    reason: "anyOf: composite error without field, then the best failure",
    schema: { type: "string", anyOf: [{ pattern: "^a" }, { pattern: "^b" }] },
    value: "c",
    want: [
      cause(
        "FieldValueInvalid",
        `Invalid value: "": "${F}" must validate at least one schema (anyOf)`,
        "<nil>",
      ),
      cause("FieldValueInvalid", `Invalid value: "c": ${F} in body should match '^a'`),
    ],
  },
  {
    reason: "anyOf satisfied by the second branch",
    schema: { type: "string", anyOf: [{ pattern: "^a" }, { pattern: "^b" }] },
    value: "b",
    want: [],
  },
  {
    reason: "oneOf matched twice",
    schema: { type: "string", oneOf: [{ minLength: 1 }, { maxLength: 5 }] },
    value: "abc",
    want: [
      cause(
        "FieldValueInvalid",
        `Invalid value: "": "${F}" must validate one and only one schema (oneOf). Found 2 valid alternatives`,
        "<nil>",
      ),
    ],
  },
  {
    reason: "allOf: inner error then composite",
    schema: { type: "string", allOf: [{ minLength: 1 }, { maxLength: 2 }] },
    value: "abc",
    want: [
      cause("FieldValueTooLong", "Too long: may not be more than 2 bytes"),
      cause("FieldValueInvalid", `Invalid value: "": "${F}" must validate all the schemas (allOf)`, "<nil>"),
    ],
  },
  {
    reason: "not",
    schema: { type: "string", not: { enum: ["forbidden"] } },
    value: "forbidden",
    want: [
      cause("FieldValueInvalid", `Invalid value: "": "${F}" must not validate the schema (not)`, "<nil>"),
    ],
  },
  {
    reason: "listType set: duplicates are FieldValueDuplicate",
    schema: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
    value: ["a", "a"],
    want: [cause("FieldValueDuplicate", `Duplicate value: "a"`, `${F}[1]`)],
  },
  {
    reason: "listType map: duplicate keys",
    schema: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" } } },
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
    },
    value: [{ name: "a" }, { name: "a" }],
    want: [cause("FieldValueDuplicate", `Duplicate value: {"name":"a"}`, `${F}[1]`)],
  },
  {
    reason: "x-kubernetes-embedded-resource requires apiVersion and kind",
    schema: {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true,
    },
    value: { metadata: { name: "x" } },
    want: [
      cause("FieldValueRequired", "Required value: must not be empty", `${F}.apiVersion`),
      cause("FieldValueRequired", "Required value: must not be empty", `${F}.kind`),
    ],
  },
  {
    reason: "an embedded resource with apiVersion and kind passes",
    schema: {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true,
    },
    value: { apiVersion: "v1", kind: "ConfigMap", data: { a: "b" } },
    want: [],
  },
];

describe("schema validation (kube-openapi wording)", () => {
  it.each(cases)("$reason", ({ schema, value, want }) => {
    expect(causesFor(schema, value)).toEqual(want);
  });
});
