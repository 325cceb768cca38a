import { describe, expect, it } from "vitest";
import { admit } from "./index.ts";
import type { JSONSchemaProps } from "./types.ts";

/** A CRD root schema with `spec.field` of the given schema. */
function root(field: JSONSchemaProps, specExtra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec: { type: "object", properties: { field }, ...specExtra },
    },
  };
}

function causesFor(field: JSONSchemaProps, value: unknown) {
  const object = { apiVersion: "g.io/v1", kind: "K", metadata: { name: "x" }, spec: { field: value } };
  return admit({ schema: root(field), object }).causes;
}

interface Case {
  reason: string;
  schema: JSONSchemaProps;
  value: unknown;
  want: { reason: string; message: string; field: string }[];
}

const F = "spec.field";

/** A status cause as the real server words it; on `spec.field` unless told. */
function cause(reason: string, message: string, field = F) {
  return { reason, message, field };
}

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

describe("formats validated by the apiserver", () => {
  const table: [string, string, boolean, string][] = [
    ["ipv4", "10.0.0.1", true, "dotted quad"],
    ["ipv4", "10.0.0.256", false, "octet out of range"],
    ["ipv4", "::1", false, "an IPv6 address is not ipv4"],
    ["ipv6", "fe80::1", true, "compressed v6"],
    ["ipv6", "10.0.0.1", false, "v4 is not ipv6"],
    ["cidr", "10.10.0.0/16", true, "v4 CIDR"],
    ["cidr", "10.10.0.0/33", false, "prefix too long"],
    ["cidr", "fd00::/64", true, "v6 CIDR"],
    ["uuid", "123e4567-e89b-12d3-a456-426614174000", true, "canonical uuid"],
    ["uuid", "not-a-uuid", false, "garbage"],
    ["date", "2024-02-29", true, "leap day"],
    ["date", "2023-02-29", false, "not a leap year"],
    ["date-time", "2024-01-02T03:04:05Z", true, "RFC3339"],
    ["date-time", "2024-01-02", false, "a date is not a date-time"],
    ["byte", "aGVsbG8=", true, "base64"],
    ["byte", "hello!", false, "not base64"],
    ["hostname", "api.example.com", true, "FQDN"],
    ["hostname", "-bad-", false, "leading hyphen"],
    ["uri", "https://x.io/a", true, "absolute URI"],
    ["uri", "relative/path", false, "relative reference"],
    ["email", "a@b.io", true, "address"],
    ["email", "nope", false, "no @"],
    ["int32", "whatever", true, "numeric formats are stripped by the server, never validated"],
    ["k8s-short-name", "my-name", true, "DNS-1123 label"],
    ["k8s-short-name", "My_Name", false, "not a DNS label"],
  ];
  it.each(table)("%s %j valid=%s (%s)", (format, value, valid) => {
    const causes = causesFor({ type: "string", format }, value);
    expect(causes.length === 0).toBe(valid);
    if (!valid) {
      expect(causes[0]).toEqual(
        cause(
          "FieldValueTypeInvalid",
          `Invalid value: ${JSON.stringify(value)}: spec.field in body must be of type ${format}: ${JSON.stringify(value)}`,
          "spec.field",
        ),
      );
    }
  });
});

describe("ratcheting on update", () => {
  const schema = root({ type: "string", maxLength: 3 });
  const make = (field: string, other = "a") => ({
    apiVersion: "g.io/v1",
    kind: "K",
    metadata: { name: "x" },
    spec: { field, other },
  });
  const withOther = {
    ...schema,
    properties: {
      ...schema.properties,
      spec: {
        ...schema.properties!.spec!,
        properties: { field: { type: "string", maxLength: 3 }, other: { type: "string" } },
      },
    },
  } as JSONSchemaProps;

  it("keeps rejecting an invalid value on create", () => {
    expect(admit({ schema: withOther, object: make("toolong") }).causes).toHaveLength(1);
  });
  it("accepts an update that leaves an already-invalid value unchanged", () => {
    const old = make("toolong", "a");
    expect(admit({ schema: withOther, object: make("toolong", "b"), oldObject: old }).causes).toEqual([]);
  });
  it("rejects an update that changes the invalid value", () => {
    const old = make("toolong", "a");
    expect(admit({ schema: withOther, object: make("toolonger", "a"), oldObject: old }).causes).toHaveLength(
      1,
    );
  });
});
