/**
 * Turns the JSON schema zod emits (`z.toJSONSchema(s, {target: "openapi-3.0", io: "input"})`)
 * into a Kubernetes structural schema:
 * - no `$ref` (definitions are inlined),
 * - no `additionalProperties: false` beside `properties` (the apiserver prunes instead),
 * - a `type` on every node (same-type `anyOf` branches are merged; string|integer becomes
 *   `x-kubernetes-int-or-string`),
 * - nothing but validations inside `anyOf`/`oneOf`/`allOf`,
 * - RE2-safe `pattern`s (no lookaround or backreferences: the apiserver compiles them with RE2),
 * - `x-kubernetes-*` extensions and descriptions kept as given through `.meta()`.
 */

export type JsonSchema = { [key: string]: unknown };

export class StructuralSchemaError extends Error {
  override name = "StructuralSchemaError";
}

const DROP = new Set([
  "$schema",
  "$id",
  "id",
  "$defs",
  "definitions",
  "examples",
  "const",
  "propertyNames",
  "title",
]);
// OpenAPI formats the apiserver knows; others are dropped (their pattern, if any, still validates).
const KNOWN_FORMATS = new Set([
  "bsonobjectid",
  "uri",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "cidr",
  "mac",
  "uuid",
  "uuid3",
  "uuid4",
  "uuid5",
  "isbn",
  "isbn10",
  "isbn13",
  "creditcard",
  "ssn",
  "hexcolor",
  "rgbcolor",
  "byte",
  "password",
  "date",
  "duration",
  "datetime",
  "date-time",
  "int32",
  "int64",
  "float",
  "double",
]);
const VALIDATION_KEYS = new Set([
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "required",
  "enum",
  "format",
  "multipleOf",
  "anyOf",
  "allOf",
  "oneOf",
  "not",
  "properties",
  "items",
]);
const UNSAFE_PATTERN = /\(\?[=!<]|\\[1-9]|\\k</;

export function isRe2Safe(pattern: string): boolean {
  return !UNSAFE_PATTERN.test(pattern);
}

export function toStructural(root: JsonSchema): JsonSchema {
  const defs = {
    ...((root.$defs as Record<string, JsonSchema>) ?? {}),
    ...((root.definitions as Record<string, JsonSchema>) ?? {}),
  };
  return walk(root, defs, "", []);
}

function walk(node: JsonSchema, defs: Record<string, JsonSchema>, path: string, seen: string[]): JsonSchema {
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace(/^#\/(\$defs|definitions)\//, "");
    const target = defs[name];
    if (!target) throw new StructuralSchemaError(`${path || "."}: unresolvable $ref ${node.$ref}`);
    if (seen.includes(name))
      throw new StructuralSchemaError(`${path || "."}: recursive schema ${name} cannot be structural`);
    const { $ref: _ref, ...rest } = node;
    return walk({ ...target, ...rest }, defs, path, [...seen, name]);
  }
  let out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROP.has(key)) continue;
    out[key] = value;
  }
  if ("const" in node) out.enum = [node.const];
  if (typeof out.format === "string" && !KNOWN_FORMATS.has(out.format)) delete out.format;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (typeof out.pattern === "string" && !isRe2Safe(out.pattern)) {
    throw new StructuralSchemaError(
      `${path || "."}: pattern ${out.pattern} is not RE2-safe (no lookaround or backreferences)`,
    );
  }

  for (const combinator of ["anyOf", "oneOf"] as const) {
    const branches = out[combinator] as JsonSchema[] | undefined;
    if (!branches) continue;
    delete out[combinator];
    out = mergeBranches(
      out,
      branches.map((b, i) => walk(b, defs, `${path}[${combinator}${i}]`, seen)),
      path,
    );
  }
  if (Array.isArray(out.allOf)) {
    const parts = (out.allOf as JsonSchema[]).map((b, i) => walk(b, defs, `${path}[allOf${i}]`, seen));
    delete out.allOf;
    for (const part of parts) out = { ...part, ...out };
  }

  if (out["x-kubernetes-preserve-unknown-fields"] === true && !out.properties) {
    // Free-form object: the extension says "keep everything", a value schema would contradict it.
    delete out.additionalProperties;
    out.type ??= "object";
  }
  if (out.properties && typeof out.properties === "object") {
    const props: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(out.properties as Record<string, JsonSchema>)) {
      props[name] = walk(child, defs, `${path}.${name}`, seen);
    }
    out.properties = props;
    if (out.additionalProperties !== undefined) delete out.additionalProperties;
    out.type ??= "object";
  } else if (out.additionalProperties === false) {
    delete out.additionalProperties;
  } else if (out.additionalProperties && typeof out.additionalProperties === "object") {
    out.additionalProperties = walk(out.additionalProperties as JsonSchema, defs, `${path}[*]`, seen);
    out.type ??= "object";
  }
  if (out.items && typeof out.items === "object") {
    out.items = walk(out.items as JsonSchema, defs, `${path}[]`, seen);
    out.type ??= "array";
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (
    out.type === undefined &&
    !out["x-kubernetes-int-or-string"] &&
    !out["x-kubernetes-preserve-unknown-fields"]
  ) {
    if (Array.isArray(out.enum) && out.enum.every((v) => typeof v === "string")) out.type = "string";
    else throw new StructuralSchemaError(`${path || "."}: every node needs a type`);
  }
  return out;
}

/** Folds union branches into the node: same-type branches merge, string|integer is int-or-string. */
function mergeBranches(node: JsonSchema, branches: JsonSchema[], path: string): JsonSchema {
  const nonNull = branches.filter(
    (b) => b.type !== "null" && !(Array.isArray(b.enum) && b.enum.length === 1 && b.enum[0] === null),
  );
  const out: JsonSchema = { ...node };
  if (nonNull.length < branches.length) out.nullable = true;
  const types = new Set(nonNull.map((b) => b.type));
  if (types.size === 1) {
    const [type] = types;
    out.type = type;
    const enums = nonNull.flatMap((b) => (Array.isArray(b.enum) ? b.enum : []));
    if (nonNull.every((b) => Array.isArray(b.enum))) out.enum = [...new Set(enums)];
    if (nonNull.length === 1) return { ...nonNull[0], ...out };
    // Different validations per branch: keep them as validation-only anyOf.
    const validations = nonNull.map((b) => onlyValidations(b));
    if (!out.enum && validations.some((v) => Object.keys(v).length > 0)) out.anyOf = validations;
    const withProps = nonNull.filter((b) => b.properties);
    if (withProps.length > 0) {
      out.properties = Object.assign({}, ...withProps.map((b) => b.properties));
    }
    return out;
  }
  if (types.size === 2 && types.has("string") && (types.has("integer") || types.has("number"))) {
    delete out.type;
    out["x-kubernetes-int-or-string"] = true;
    return out;
  }
  throw new StructuralSchemaError(`${path || "."}: a union of ${[...types].join(", ")} cannot be structural`);
}

function onlyValidations(branch: JsonSchema): JsonSchema {
  const v: JsonSchema = {};
  for (const [k, value] of Object.entries(branch)) {
    if (VALIDATION_KEYS.has(k) && k !== "properties" && k !== "items") v[k] = value;
  }
  return v;
}

/** Structural rules as a checker, for tests of generated CRDs. Returns the violations found. */
export function structuralViolations(node: JsonSchema, path = "", inCombinator = false): string[] {
  const out: string[] = [];
  const at = path || ".";
  if ("$ref" in node) out.push(`${at}: $ref`);
  if (!inCombinator) {
    if (
      node.type === undefined &&
      !node["x-kubernetes-int-or-string"] &&
      !node["x-kubernetes-preserve-unknown-fields"]
    )
      out.push(`${at}: no type`);
    if (node.properties && node.additionalProperties !== undefined)
      out.push(`${at}: additionalProperties beside properties`);
  } else {
    for (const k of ["type", "description", "default", "nullable", "additionalProperties"]) {
      if (k in node) out.push(`${at}: ${k} inside a combinator`);
    }
  }
  if (typeof node.pattern === "string" && !isRe2Safe(node.pattern)) out.push(`${at}: pattern not RE2-safe`);
  for (const c of ["anyOf", "oneOf", "allOf"]) {
    const branches = node[c] as JsonSchema[] | undefined;
    for (const [i, b] of (branches ?? []).entries())
      out.push(...structuralViolations(b, `${path}[${c}${i}]`, true));
  }
  const props = node.properties as Record<string, JsonSchema> | undefined;
  for (const [name, child] of Object.entries(props ?? {}))
    out.push(...structuralViolations(child, `${path}.${name}`, inCombinator));
  if (node.items && typeof node.items === "object")
    out.push(...structuralViolations(node.items as JsonSchema, `${path}[]`, inCombinator));
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    out.push(...structuralViolations(node.additionalProperties as JsonSchema, `${path}[*]`, inCombinator));
  return out;
}
