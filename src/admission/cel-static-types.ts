/**
 * The types the CEL static checker can be sure of, read from the schema or a literal. Anything
 * uncertain is undefined, so an overload check never rejects a rule the real server accepts.
 */
import type { JSONSchemaProps } from "./types.ts";

/** The schema the static checker attributes to an expression, when it can tell. */
export type StaticType = { schema: JSONSchemaProps; isRoot: boolean } | undefined;

export function scalar(type: string): StaticType {
  return { schema: { type }, isRoot: false };
}

/** The CEL scalar type of a static type, when certain; formats the apiserver binds as timestamp etc. are not. */
export function celScalar(t: StaticType): string | undefined {
  const s = t?.schema;
  if (!s || s["x-kubernetes-int-or-string"] || s["x-kubernetes-preserve-unknown-fields"]) return undefined;
  if (s.type === "string" && s.format && ["date", "date-time", "duration", "byte"].includes(s.format))
    return undefined;
  switch (s.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "null":
      return "null_type";
    default:
      return undefined;
  }
}

/** Schema types of CEL literals; uint and bytes literals stay unknown, as no schema type maps to them. */
const LITERAL_TYPES = new Map([
  ["int64Value", "integer"],
  ["doubleValue", "number"],
  ["stringValue", "string"],
  ["boolValue", "boolean"],
  ["nullValue", "null"],
]);

export function constType(c: { constantKind: { case: string | undefined } }): StaticType {
  const type = LITERAL_TYPES.get(c.constantKind.case ?? "");
  return type === undefined ? undefined : scalar(type);
}

/** The type name cel-go's messages give a schema node. */
export function celTypeName(s: JSONSchemaProps): string {
  if (s["x-kubernetes-int-or-string"]) return "dyn";
  switch (s.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "array":
      return "list";
    default:
      return s.type ?? "dyn";
  }
}
