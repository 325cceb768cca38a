/**
 * The JSON types of JSONSchemaProps keywords. The real server decodes a CRD into Go structs, so a
 * keyword of the wrong type (`required: "name"`) never reaches validation; here `checkCrd` reports
 * it, and `sanitizeSchema` drops it so admission code can rely on the types.
 */
import { type FieldError, fieldErrors } from "./field-error.ts";
import { isObject, type JSONSchemaProps } from "./types.ts";

type Kind =
  | "string"
  | "boolean"
  | "number"
  | "strings"
  | "array"
  | "schema"
  | "schemas"
  | "schemaMap"
  | "schemaOrBool"
  | "rules";

const KEYWORDS: Record<string, Kind> = {
  type: "string",
  format: "string",
  description: "string",
  title: "string",
  pattern: "string",
  $ref: "string",
  "x-kubernetes-list-type": "string",
  "x-kubernetes-map-type": "string",
  nullable: "boolean",
  exclusiveMinimum: "boolean",
  exclusiveMaximum: "boolean",
  uniqueItems: "boolean",
  "x-kubernetes-preserve-unknown-fields": "boolean",
  "x-kubernetes-int-or-string": "boolean",
  "x-kubernetes-embedded-resource": "boolean",
  minLength: "number",
  maxLength: "number",
  minimum: "number",
  maximum: "number",
  multipleOf: "number",
  minItems: "number",
  maxItems: "number",
  minProperties: "number",
  maxProperties: "number",
  required: "strings",
  "x-kubernetes-list-map-keys": "strings",
  enum: "array",
  items: "schema",
  not: "schema",
  additionalProperties: "schemaOrBool",
  allOf: "schemas",
  anyOf: "schemas",
  oneOf: "schemas",
  properties: "schemaMap",
  "x-kubernetes-validations": "rules",
};

const RULE_FIELDS: Record<string, "string" | "boolean"> = {
  rule: "string",
  message: "string",
  messageExpression: "string",
  reason: "string",
  fieldPath: "string",
  optionalOldSelf: "boolean",
};

const DESCRIPTION: Record<Kind, string> = {
  string: "must be a string",
  boolean: "must be a boolean",
  number: "must be a number",
  strings: "must be a list of strings",
  array: "must be a list",
  schema: "must be a schema object",
  schemas: "must be a list of schema objects",
  schemaMap: "must be a map of schema objects",
  schemaOrBool: "must be a schema object or a boolean",
  rules: "must be a list of validation rules",
};

function matches(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "strings":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    case "array":
      return Array.isArray(v);
    case "schema":
      return isObject(v);
    case "schemas":
      return Array.isArray(v) && v.every(isObject);
    case "schemaMap":
      return isObject(v) && Object.values(v).every(isObject);
    case "schemaOrBool":
      return isObject(v) || typeof v === "boolean";
    case "rules":
      return (
        Array.isArray(v) &&
        v.every(
          (r) =>
            isObject(r) &&
            Object.entries(RULE_FIELDS).every(([k, t]) => r[k] === undefined || typeof r[k] === t),
        )
      );
  }
}

/** Keywords of the wrong JSON type, at every node (`...properties[spec].required`). */
export function schemaShapeErrors(s: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, kind] of Object.entries(KEYWORDS)) {
    const v = s[key];
    if (v === undefined) continue;
    if (!matches(kind, v)) {
      errors.push(fieldErrors.invalid(`${path}.${key}`, v, DESCRIPTION[kind]));
      continue;
    }
    if (kind === "schema" || (kind === "schemaOrBool" && isObject(v))) {
      errors.push(...schemaShapeErrors(v as Record<string, unknown>, `${path}.${key}`));
    } else if (kind === "schemas") {
      (v as Record<string, unknown>[]).forEach((sub, i) => {
        errors.push(...schemaShapeErrors(sub, `${path}.${key}[${i}]`));
      });
    } else if (kind === "schemaMap") {
      for (const [name, sub] of Object.entries(v as Record<string, Record<string, unknown>>)) {
        errors.push(...schemaShapeErrors(sub, `${path}.${key}[${name}]`));
      }
    }
  }
  return errors;
}

const sanitized = new WeakMap<object, JSONSchemaProps>();

/** A copy of the schema without keywords of the wrong type (cached per schema object). */
export function sanitizeSchema(s: unknown): JSONSchemaProps {
  if (!isObject(s)) return {};
  const hit = sanitized.get(s);
  if (hit) return hit;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(s)) {
    const kind = KEYWORDS[key];
    if (kind === undefined) {
      out[key] = v;
      continue;
    }
    if (!matches(kind, v)) continue;
    if (kind === "schema" || (kind === "schemaOrBool" && isObject(v))) out[key] = sanitizeSchema(v);
    else if (kind === "schemas") out[key] = (v as unknown[]).map(sanitizeSchema);
    else if (kind === "schemaMap") {
      out[key] = Object.fromEntries(Object.entries(v as object).map(([k, sub]) => [k, sanitizeSchema(sub)]));
    } else out[key] = v;
  }
  sanitized.set(s, out as JSONSchemaProps);
  return out as JSONSchemaProps;
}
