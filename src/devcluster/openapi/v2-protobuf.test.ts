import { fromBinary, toJson } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openApiV2 } from "../openapi.ts";
import { gnosticMessage } from "./gnostic.ts";
import { openApiV2Format, openApiV2Protobuf, openApiV2Response } from "./v2-protobuf.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests walk untyped documents
type Any = any;

/** A schema using every keyword a CRD's v2 schema keeps, vendor extensions included. */
const SCHEMA = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      required: ["size"],
      properties: {
        size: { type: "integer", minimum: 1, maximum: 10, default: 3, format: "int32" },
        color: { type: "string", enum: ["red", "blue"], pattern: "^[a-z]+$", maxLength: 9 },
        labels: { type: "object", additionalProperties: { type: "string" }, maxProperties: 4 },
        ports: {
          type: "array",
          maxItems: 8,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: { type: "object", properties: { name: { type: "string" } } },
        },
      },
      "x-kubernetes-validations": [{ rule: "self.size < 10", message: "too big: it's over 9" }],
    },
    status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  },
};
const gizmos = { plural: "gizmos", kind: "Gizmo" };
const v1 = { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: SCHEMA } };
const crd = { spec: { group: "example.com", scope: "Namespaced", names: gizmos, versions: [v1] } };

/** gnostic's protobuf back to swagger JSON, as kube-openapi's FromGnostic reads it. */
function back(name: string, v: Any): unknown {
  const named = (list: Any[] | undefined, type: string) =>
    Object.fromEntries((list ?? []).map((n) => [n.name, back(type, n.value)]));
  switch (name) {
    case "Any":
      return parse(v.yaml);
    case "TypeItem":
      return v.value.length === 1 ? v.value[0] : v.value;
    case "ItemsItem":
      return back("Schema", v.schema[0]);
    case "AdditionalPropertiesItem":
      return "boolean" in v ? v.boolean : back("Schema", v.schema);
    case "Properties":
    case "Definitions":
      return named(v.additional_properties, "Schema");
    case "Paths":
      return named(v.path, "PathItem");
    case "ParametersItem":
      return back("Parameter", v.parameter);
    case "Parameter":
      if (v.body_parameter) return back("BodyParameter", v.body_parameter);
      if (v.non_body_parameter.query_parameter_sub_schema)
        return back("QueryParameterSubSchema", v.non_body_parameter.query_parameter_sub_schema);
      return back("PathParameterSubSchema", v.non_body_parameter.path_parameter_sub_schema);
    case "Responses":
      return named(v.response_code, "ResponseValue");
    case "ResponseValue":
      return back("Response", v.response);
    case "SchemaItem":
      return back("Schema", v.schema);
    case "SecurityDefinitions":
      return named(v.additional_properties, "SecurityDefinitionsItem");
    case "SecurityDefinitionsItem":
      return back("ApiKeySecurity", v.api_key_security);
    case "SecurityRequirement":
      return Object.fromEntries(v.additional_properties.map((n: Any) => [n.name, n.value.value ?? []]));
  }
  const desc = gnosticMessage(name);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v as Record<string, Any>)) {
    if (key === "vendor_extension") {
      Object.assign(out, named(value, "Any"));
      continue;
    }
    const field = desc.fields.find((f) => f.name === key)!;
    const jsonKey = key === "_ref" ? "$ref" : key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const type = field.message?.name;
    if (type)
      out[jsonKey] = field.fieldKind === "list" ? value.map((x: Any) => back(type, x)) : back(type, value);
    else out[jsonKey] = field.scalar === 3 ? Number(value) : value; // int64 comes back as a string
  }
  return out;
}

/**
 * proto3 does not write false, 0 or "" (gnostic's own caveat), except inside the YAML of free-form
 * values (defaults, enums, extensions): what the document says once it went through protobuf.
 */
function withoutProtoDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProtoDefaults);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "default" || key === "enum" || key === "example" || key.startsWith("x-")) out[key] = v;
    else if (v !== false && v !== 0 && v !== "") out[key] = withoutProtoDefaults(v);
  }
  return out;
}

describe("openApiV2Protobuf", () => {
  const doc = openApiV2([crd]);
  const bytes = openApiV2Protobuf(doc);

  it("decodes as gnostic's openapi.v2.Document into the very swagger document served as JSON", () => {
    const Document = gnosticMessage("Document");
    const decoded = toJson(Document, fromBinary(Document, bytes), { useProtoFieldName: true });
    expect(back("Document", decoded)).toEqual(withoutProtoDefaults(JSON.parse(JSON.stringify(doc))));
  });

  it("puts the fields where gnostic's OpenAPIv2.proto numbers them", () => {
    // Document.swagger = 1, Document.definitions = 9; Definitions.additional_properties = 1;
    // NamedSchema.name = 1, .value = 2; Schema.vendor_extension = 31; NamedAny.value = 2;
    // Any.yaml = 2.
    const fields = (buf: Uint8Array) => {
      const reader = new BinaryReader(buf);
      const out: [number, Uint8Array][] = [];
      while (reader.pos < reader.len) {
        const [no, wire] = reader.tag();
        expect(wire).toBe(WireType.LengthDelimited);
        out.push([no, reader.bytes()]);
      }
      return out;
    };
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    const top = fields(bytes);
    expect(text(top.find(([no]) => no === 1)![1])).toBe("2.0");
    const definitions = fields(top.find(([no]) => no === 9)![1]).map(([, named]) => fields(named));
    const gizmo = definitions.find(
      (named) => text(named.find(([no]) => no === 1)![1]) === "com.example.v1.Gizmo",
    )!;
    const schema = fields(gizmo.find(([no]) => no === 2)![1]);
    const gvk = fields(schema.find(([no]) => no === 31)![1]);
    expect(text(gvk.find(([no]) => no === 1)![1])).toBe("x-kubernetes-group-version-kind");
    const yaml = fields(gvk.find(([no]) => no === 2)![1]).find(([no]) => no === 2)![1];
    expect(parse(text(yaml))).toEqual([{ group: "example.com", kind: "Gizmo", version: "v1" }]);
  });

  it("refuses what gnostic cannot carry instead of writing a document kubectl cannot read", () => {
    expect(() => openApiV2Protobuf({ swagger: "2.0", nullable: true })).toThrow(
      'Document has no field for "nullable"',
    );
  });
});

describe("openApiV2Format", () => {
  it.each([
    ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "protobuf"],
    ["application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "protobuf"],
    ["application/json", "json"],
    ["application/json, */*", "json"],
    [undefined, "json"],
    ["*/*", "json"],
    ["application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "protobuf"],
    ["text/html", undefined],
  ])("%s -> %s", (accept, format) => {
    expect(openApiV2Format(accept)).toBe(format);
  });

  it("answers 406 with no body for a type it cannot serve, as kube-openapi does", () => {
    expect(openApiV2Response("text/html", {})).toMatchObject({ status: 406, body: "" });
  });
});
