import { describe, expect, it } from "vitest";
import { checkCrd, type JSONSchemaProps } from "./index.ts";
import { schemaWithSpec } from "./index-cases.testing.ts";

describe("checkCrd", () => {
  function crd(overrides: { spec?: Record<string, unknown>; schema?: JSONSchemaProps; name?: string } = {}) {
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: overrides.name ?? "routes.cloud.svc.io" },
      spec: {
        group: "cloud.svc.io",
        scope: "Namespaced",
        names: { plural: "routes", singular: "route", kind: "Route", listKind: "RouteList" },
        versions: [
          {
            name: "v1alpha1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema:
                overrides.schema ?? schemaWithSpec({ type: "object", properties: { a: { type: "string" } } }),
            },
          },
        ],
        ...overrides.spec,
      },
    };
  }
  const S = "spec.versions[0].schema.openAPIV3Schema";
  const cases: {
    reason: string;
    input: Record<string, unknown>;
    want: { field: string; reason: string; message?: string }[];
  }[] = [
    { reason: "a well-formed CRD passes", input: crd(), want: [] },
    {
      reason: "missing group and names",
      input: crd({ spec: { group: undefined, names: {} } }),
      want: [
        { field: "spec.group", reason: "FieldValueRequired", message: "Required value" },
        { field: "spec.names.plural", reason: "FieldValueRequired" },
        { field: "spec.names.kind", reason: "FieldValueRequired" },
      ],
    },
    {
      reason: "name must be plural.group",
      input: crd({ name: "wrong.cloud.svc.io" }),
      want: [
        {
          field: "metadata.name",
          reason: "FieldValueInvalid",
          message: 'Invalid value: "wrong.cloud.svc.io": must be spec.names.plural+"."+spec.group',
        },
      ],
    },
    {
      reason: "group without a dot",
      input: crd({ spec: { group: "local" }, name: "routes.local" }),
      want: [
        {
          field: "spec.group",
          reason: "FieldValueInvalid",
          message: 'Invalid value: "local": should be a domain with at least one dot',
        },
      ],
    },
    {
      reason: "unsupported scope",
      input: crd({ spec: { scope: "Global" } }),
      want: [
        {
          field: "spec.scope",
          reason: "FieldValueNotSupported",
          message: 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
        },
      ],
    },
    {
      reason: "no storage version",
      input: crd({
        spec: {
          versions: [
            { name: "v1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
          ],
        },
      }),
      want: [
        {
          field: "spec.versions",
          reason: "FieldValueInvalid",
          message: 'Invalid value: ["v1"]: must have exactly one version marked as storage version',
        },
      ],
    },
    {
      reason: "two storage versions",
      input: crd({
        spec: {
          versions: [
            { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
            { name: "v2", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
          ],
        },
      }),
      want: [{ field: "spec.versions", reason: "FieldValueInvalid" }],
    },
    {
      reason: "missing schema",
      input: crd({ spec: { versions: [{ name: "v1", served: true, storage: true }] } }),
      want: [{ field: S, reason: "FieldValueRequired", message: "Required value: schemas are required" }],
    },
    {
      reason: "non-structural: property without type",
      input: crd({ schema: schemaWithSpec({ type: "object", properties: { a: {} } }) }),
      want: [
        {
          field: `${S}.properties[spec].properties[a].type`,
          reason: "FieldValueRequired",
          message: "Required value: must not be empty for specified object fields",
        },
      ],
    },
    {
      reason: "non-structural: root not an object",
      input: crd({ schema: { type: "string" } }),
      want: [
        {
          field: `${S}.type`,
          reason: "FieldValueInvalid",
          message: 'Invalid value: "string": must be object at the root',
        },
      ],
    },
    {
      reason: "properties and additionalProperties together",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          additionalProperties: { type: "string" },
        }),
      }),
      want: [{ field: `${S}.properties[spec].additionalProperties`, reason: "FieldValueForbidden" }],
    },
    {
      reason: "array without items",
      input: crd({ schema: schemaWithSpec({ type: "object", properties: { l: { type: "array" } } }) }),
      want: [
        {
          field: `${S}.properties[spec].properties[l].items`,
          reason: "FieldValueRequired",
          message: "Required value: must be specified",
        },
      ],
    },
    {
      reason: "pattern that is not RE2",
      input: crd({
        schema: schemaWithSpec({ type: "object", properties: { a: { type: "string", pattern: "^(?=a)" } } }),
      }),
      want: [{ field: `${S}.properties[spec].properties[a].pattern`, reason: "FieldValueInvalid" }],
    },
    {
      reason: "default that violates its own schema",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string", enum: ["x"], default: "y" } },
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].properties[a].default`,
          reason: "FieldValueNotSupported",
          message: 'Unsupported value: "y": supported values: "x"',
        },
      ],
    },
    {
      reason:
        "a CEL rule referring to a field the schema lacks does not compile; the cause names the rule's path",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "self.nope == 'x'" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
          message:
            'Invalid value: apiextensions.ValidationRule{Rule:"self.nope == \'x\'", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'nope\'\n | self.nope == \'x\'\n | ....^',
        },
      ],
    },
    {
      reason: "a CEL syntax error",
      input: crd({
        schema: schemaWithSpec({ type: "object", "x-kubernetes-validations": [{ rule: "self.a ==" }] }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "an undeclared variable",
      input: crd({
        schema: schemaWithSpec({ type: "object", "x-kubernetes-validations": [{ rule: "other == 1" }] }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "oldSelf under an atomic list item is uncorrelatable",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: {
            l: {
              type: "array",
              items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
            },
          },
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].properties[l].items.x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
        },
      ],
    },
    {
      reason: "an overload cel-go rejects at compile time: int compared with string",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { size: { type: "integer" } },
          "x-kubernetes-validations": [{ rule: "self.size == 'x'" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
          message:
            "Invalid value: apiextensions.ValidationRule{Rule:\"self.size == 'x'\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(int, string)'\n | self.size == 'x'\n | ..........^",
        },
      ],
    },
    {
      reason: "equality does not mix int and double, arithmetic does not mix int and string",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { ratio: { type: "number" }, name: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "self.ratio == 1" }, { rule: "self.name + 1 == 'a1'" }],
        }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].x-kubernetes-validations[1].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason:
        "valid typed rules compile: cross-type numeric ordering, ternaries, sizes, int-or-string as dyn, null checks",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: {
            size: { type: "integer" },
            ratio: { type: "number" },
            port: { "x-kubernetes-int-or-string": true },
            tags: { type: "array", items: { type: "string" } },
            a: { type: "object", properties: {} },
            b: { type: "string", nullable: true },
          },
          "x-kubernetes-validations": [
            { rule: "self.size > 1.5 && self.ratio < 3" },
            { rule: "(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1" },
            { rule: "self.tags.size() < 10 && self.tags.all(t, t.size() > 0)" },
            { rule: "self.port == 80 || self.port == 'http'" },
            { rule: "self.b != null" },
            { rule: "self.tags[0] == 'x' || self.tags.exists(t, t.startsWith('k'))" },
          ],
        }),
      }),
      want: [],
    },
    {
      reason: "printer columns: unsupported type, missing jsonPath, jsonPath without the leading dot",
      input: crd({
        spec: {
          versions: [
            {
              name: "v1alpha1",
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: "object" } },
              additionalPrinterColumns: [
                { name: "A", type: "text", jsonPath: ".spec.a" },
                { name: "B", type: "string" },
                { name: "C", type: "string", jsonPath: "spec.a" },
                { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              ],
            },
          ],
        },
      }),
      want: [
        {
          field: "spec.versions[0].additionalPrinterColumns[0].type",
          reason: "FieldValueNotSupported",
          message:
            'Unsupported value: "text": supported values: "boolean", "date", "integer", "number", "string"',
        },
        { field: "spec.versions[0].additionalPrinterColumns[1].jsonPath", reason: "FieldValueRequired" },
        { field: "spec.versions[0].additionalPrinterColumns[2].jsonPath", reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "keywords of the wrong JSON type (the real server fails to decode them) and tuple items",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          required: "a" as unknown as string[],
          properties: {
            a: { type: "string", maxLength: "3" as unknown as number },
            l: { type: "array", items: [{ type: "string" }] as unknown as JSONSchemaProps },
          },
          "x-kubernetes-validations": [{ rule: 1 as unknown as string }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].required`,
          reason: "FieldValueInvalid",
          message: 'Invalid value: "a": must be a list of strings',
        },
        { field: `${S}.properties[spec].properties[a].maxLength`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].properties[l].items`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].x-kubernetes-validations`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].properties[l].items`, reason: "FieldValueRequired" },
      ],
    },
    {
      reason: "invalid rule reason and fieldPath",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "true", reason: "Nope", fieldPath: ".missing" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].reason`,
          reason: "FieldValueNotSupported",
        },
        { field: `${S}.properties[spec].x-kubernetes-validations[0].fieldPath`, reason: "FieldValueInvalid" },
      ],
    },
  ];
  it.each(cases)("$reason", ({ input, want }) => {
    const got = checkCrd(input);
    expect(got.map((c) => ({ field: c.field, reason: c.reason }))).toEqual(
      want.map((w) => ({ field: w.field, reason: w.reason })),
    );
    want.forEach((w, i) => {
      if (w.message !== undefined) expect(got[i]?.message).toBe(w.message);
    });
  });
});
