/** /openapi/v2: one swagger 2.0 document with every kind. */
import { allKinds, schemasFor } from "./kinds.ts";
import { pathsFor } from "./paths.ts";
import { type CRD, isObj, type Obj, resolveRefs, VERSION } from "./schema.ts";

/** The keys of a swagger 2.0 schema (gnostic's Schema) that a structural schema can carry. */
const V2_KEYS = new Set([
  "$ref",
  "format",
  "title",
  "description",
  "default",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "enum",
  "additionalProperties",
  "type",
  "items",
  "properties",
]);

const isNullable = (schema: unknown) => isObj(schema) && schema.nullable === true;

/**
 * A schema as the apiserver publishes it in v2 (apiextensions ToStructuralOpenAPIV2): v2 has no
 * nullable, anyOf, oneOf, allOf or not, so those go; a nullable node loses its type, items and
 * properties, and a required entry naming a nullable property goes; a node preserving unknown
 * fields loses items and properties, and an array left without items its type (kubectl cannot
 * read either). Vendor extensions stay as they are.
 */
function toV2Schema(value: unknown): unknown {
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith("x-")) out[k] = v;
    else if (!V2_KEYS.has(k)) continue;
    else if (k === "properties" && isObj(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toV2Schema(s)]));
    } else if (k === "items" || k === "additionalProperties") out[k] = toV2Schema(v);
    else out[k] = v;
  }
  if (isNullable(value) || value["x-kubernetes-preserve-unknown-fields"] === true) {
    delete out.items;
    delete out.properties;
  }
  if (isNullable(value) || (out.type === "array" && out.items === undefined)) delete out.type;
  const properties = isObj(value.properties) ? value.properties : {};
  if (Array.isArray(out.required)) {
    const required = isNullable(value.additionalProperties)
      ? []
      : out.required.filter((name) => !isNullable(properties[String(name)]));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}

/** The whole /openapi/v2 document (swagger 2.0). */
export function openApiV2(crds: CRD[]): object {
  const kinds = allKinds(crds);
  const definitions = Object.fromEntries(
    Object.entries(schemasFor(kinds)).map(([name, schema]) => [name, resolveRefs(toV2Schema(schema), "v2")]),
  );
  const paths: Record<string, Obj> = {};
  for (const k of kinds) Object.assign(paths, pathsFor(k, "v2"));
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: VERSION },
    paths,
    definitions,
    securityDefinitions: {
      BearerToken: {
        type: "apiKey",
        name: "authorization",
        in: "header",
        description: "Bearer Token authentication",
      },
    },
    security: [{ BearerToken: [] }],
  };
}
