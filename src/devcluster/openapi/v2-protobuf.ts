/**
 * /openapi/v2 in protobuf, as kube-apiserver answers `Accept:
 * application/com.github.proto-openapi.spec.v2@v1.0+protobuf`: the swagger document turned into
 * gnostic's openapi.v2.Document (what gnostic's ParseDocument makes of the JSON) and encoded by
 * @bufbuild/protobuf. kubectl asks for it to validate a manifest client-side when /openapi/v3 does
 * not describe the kind, before it maps the kind to a resource; a document it cannot decode stops
 * `kubectl apply` with `proto: cannot parse invalid wire-format data`.
 */
import { type DescMessage, fromJson, type JsonObject, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { stringify } from "yaml";
import { gnosticMessage } from "./gnostic.ts";
import { isObj, type Obj } from "./schema.ts";

/** The media type served (the `@v1.0` spelling kubectl sends is answered with this one, as the real server does). */
export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
const PROTOBUF_SUBTYPES = [
  "com.github.proto-openapi.spec.v2@v1.0+protobuf",
  "com.github.proto-openapi.spec.v2.v1.0+protobuf",
];

/**
 * What an Accept header gets from /openapi/v2, as kube-openapi negotiates it: the first clause
 * (in order of preference) that JSON or protobuf satisfies; none answers 406.
 */
export function openApiV2Format(accept: string | undefined): "json" | "protobuf" | undefined {
  const clauses = (accept && accept.trim() !== "" ? accept : "*/*").split(",").map((part, index) => {
    const [range = "", ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    const [type = "", subtype = ""] = range.toLowerCase().split("/");
    return { type, subtype, q: q ? Number(q.slice(2)) : 1, index };
  });
  const specificity = (c: { type: string; subtype: string }) =>
    c.type === "*" ? 0 : c.subtype === "*" ? 1 : 2;
  clauses.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.index - b.index);
  for (const { type, subtype, q } of clauses) {
    if (q <= 0 || (type !== "application" && type !== "*")) continue;
    if (subtype === "json" || subtype === "*") return "json";
    if (PROTOBUF_SUBTYPES.includes(subtype)) return "protobuf";
  }
  return undefined;
}

/** gnostic keeps free-form values (defaults, enums, extensions) as the YAML it read them from. */
const any = (value: unknown): JsonObject => ({ yaml: stringify(value, { lineWidth: 0 }) });

const named = (value: unknown, convert: (v: unknown) => JsonValue): JsonObject[] =>
  isObj(value) ? Object.entries(value).map(([name, v]) => ({ name, value: convert(v) })) : [];

const withoutExtensions = (value: unknown): Obj =>
  isObj(value) ? Object.fromEntries(Object.entries(value).filter(([k]) => !k.startsWith("x-"))) : {};

const extensions = (value: unknown) =>
  isObj(value)
    ? named(Object.fromEntries(Object.entries(value).filter(([k]) => k.startsWith("x-"))), any)
    : [];

function parameter(value: unknown): JsonObject {
  const where = isObj(value) ? value.in : undefined;
  if (where === "body") return { body_parameter: message("BodyParameter", value) };
  if (where === "query")
    return { non_body_parameter: { query_parameter_sub_schema: message("QueryParameterSubSchema", value) } };
  if (where === "path")
    return { non_body_parameter: { path_parameter_sub_schema: message("PathParameterSubSchema", value) } };
  throw new Error(`/openapi/v2: parameters in ${String(where)} are not described`);
}

const reference = (value: Obj) => ({ json_reference: message("JsonReference", value) });

/** Messages whose JSON form is not one field per key: maps, unions and wrappers. */
const CONVERTERS: Record<string, (value: unknown) => JsonValue> = {
  Any: any,
  TypeItem: (v) => ({ value: Array.isArray(v) ? (v as JsonValue[]) : [v as string] }),
  ItemsItem: (v) => ({ schema: (Array.isArray(v) ? v : [v]).map((s) => message("Schema", s)) }),
  AdditionalPropertiesItem: (v): JsonObject =>
    typeof v === "boolean" ? { boolean: v } : { schema: message("Schema", v) },
  Properties: (v) => ({ additional_properties: named(v, (s) => message("Schema", s)) }),
  Definitions: (v) => ({ additional_properties: named(v, (s) => message("Schema", s)) }),
  Paths: (v) => ({
    path: named(withoutExtensions(v), (p) => message("PathItem", p)),
    vendor_extension: extensions(v),
  }),
  ParametersItem: (v) => (isObj(v) && "$ref" in v ? reference(v) : { parameter: parameter(v) }),
  ParameterDefinitions: (v) => ({ additional_properties: named(v, parameter) }),
  Responses: (v) => ({
    response_code: named(withoutExtensions(v), (r) => CONVERTERS.ResponseValue!(r)),
    vendor_extension: extensions(v),
  }),
  ResponseValue: (v) => (isObj(v) && "$ref" in v ? reference(v) : { response: message("Response", v) }),
  ResponseDefinitions: (v) => ({ additional_properties: named(v, (r) => message("Response", r)) }),
  SchemaItem: (v) => {
    if (isObj(v) && v.type === "file") throw new Error("/openapi/v2: file schemas are not described");
    return { schema: message("Schema", v) };
  },
  SecurityDefinitions: (v) => ({
    additional_properties: named(v, (item): JsonObject => {
      const kind = isObj(item) ? item.type : undefined;
      if (kind === "apiKey") return { api_key_security: message("ApiKeySecurity", item) };
      if (kind === "basic")
        return { basic_authentication_security: message("BasicAuthenticationSecurity", item) };
      throw new Error(`/openapi/v2: security definitions of type ${String(kind)} are not described`);
    }),
  }),
  SecurityRequirement: (v) => ({
    additional_properties: named(v, (scopes) => ({ value: scopes as JsonValue })),
  }),
};

/** `basePath` -> `base_path`, `$ref` -> `_ref`: gnostic's field names for swagger's keys. */
const fieldName = (key: string) =>
  key === "$ref" ? "_ref" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function message(name: string, value: unknown): JsonObject {
  if (CONVERTERS[name]) return CONVERTERS[name](value) as JsonObject;
  if (!isObj(value)) throw new Error(`/openapi/v2: a ${name} must be an object`);
  const desc: DescMessage = gnosticMessage(name);
  const out: JsonObject = {};
  const vendor = extensions(value);
  if (vendor.length > 0) out.vendor_extension = vendor;
  for (const [key, v] of Object.entries(withoutExtensions(value))) {
    const field = desc.fields.find((f) => f.name === fieldName(key));
    if (!field) throw new Error(`/openapi/v2: ${name} has no field for "${key}"`);
    const type = field.message?.name;
    if (!type) out[field.name] = v as JsonValue;
    else if (field.fieldKind === "list")
      out[field.name] = (v as unknown[]).map((item) => message(type, item));
    else out[field.name] = message(type, v);
  }
  return out;
}

/** The swagger document (openApiV2's) as gnostic's protobuf. */
export function openApiV2Protobuf(document: object): Uint8Array {
  const Document = gnosticMessage("Document");
  return toBinary(Document, fromJson(Document, message("Document", document)));
}

let last: { json: string; protobuf: Uint8Array } | undefined;

/**
 * The HTTP answer to GET /openapi/v2 for an Accept header: JSON, protobuf (encoded again only
 * when the document changed), or 406 with no body, as kube-openapi's handler answers.
 */
export function openApiV2Response(
  accept: string | undefined,
  document: object,
): { status: number; headers: Record<string, string | number>; body: string | Uint8Array } {
  const format = openApiV2Format(accept);
  if (!format) return { status: 406, headers: { "Content-Length": 0 }, body: "" };
  const json = JSON.stringify(document);
  if (format === "json") {
    return {
      status: 200,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) },
      body: json,
    };
  }
  if (last?.json !== json) last = { json, protobuf: openApiV2Protobuf(document) };
  const body = last.protobuf;
  return {
    status: 200,
    headers: { "Content-Type": OPENAPI_V2_PROTOBUF, "Content-Length": body.length },
    body,
  };
}
