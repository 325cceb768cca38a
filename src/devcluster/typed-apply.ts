/**
 * Server-side apply's first step on the real server: the apply configuration becomes a typed
 * value of the kind's schema (structured-merge-diff), and what does not fit is a 500, before any
 * admission: a field the schema does not declare, a value of another type, a list-map item
 * without its keys or given twice. Custom resources only (their schema is known here).
 */
import { ApiError } from "./errors.ts";
import { isObj, type Obj } from "./meta.ts";

/** The 500 a configuration that does not fit its schema gets, or undefined when it fits. */
export function typedPatchError(config: Obj, schema: Obj, gvk: string): ApiError | undefined {
  const errors: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === "apiVersion" || key === "kind") continue;
    if (key === "metadata") checkMetadata(value, errors);
    else check(value, propertySchema(schema, key), `.${key}`, errors);
  }
  if (errors.length === 0) return undefined;
  const meta = isObj(config.metadata) ? config.metadata : {};
  const subject = `${String(meta.namespace ?? "")}/${String(meta.name ?? "")}; ${gvk}`;
  const detail = errors.length === 1 ? errors[0] : `errors:\n  ${errors.join("\n  ")}`;
  return new ApiError(500, "", `failed to create typed patch object (${subject}): ${detail}`);
}

/** The schema of a property, or undefined when the object declares none by that name. */
function propertySchema(schema: Obj, key: string): Obj | undefined {
  if (isObj(schema.properties) && isObj(schema.properties[key])) return schema.properties[key];
  if (isObj(schema.additionalProperties)) return schema.additionalProperties;
  if (schema["x-kubernetes-preserve-unknown-fields"] === true) return {};
  return undefined;
}

function check(value: unknown, schema: Obj | undefined, path: string, errors: string[]): void {
  if (schema === undefined) return void errors.push(`${path}: field not declared in schema`);
  if (value === null || schema["x-kubernetes-int-or-string"] === true) return;
  switch (schema.type) {
    case "object":
      if (!isObj(value)) return void errors.push(`${path}: expected map, got &{${goValue(value)}}`);
      for (const [key, child] of Object.entries(value))
        check(child, propertySchema(schema, key), `${path}.${key}`, errors);
      return;
    case "array":
      if (!Array.isArray(value)) return void errors.push(`${path}: expected list, got &{${goValue(value)}}`);
      if (schema["x-kubernetes-list-type"] === "map") checkListMap(value, schema, path, errors);
      for (const [i, item] of value.entries())
        check(item, isObj(schema.items) ? schema.items : {}, `${path}[${i}]`, errors);
      return;
    case "string":
      if (typeof value !== "string") errors.push(`${path}: expected string, got ${unstructured(value)}`);
      return;
    case "integer":
    case "number":
      if (typeof value !== "number")
        errors.push(`${path}: expected numeric (int or float), got ${goKind(value)}`);
      return;
    case "boolean":
      if (typeof value !== "boolean") errors.push(`${path}: expected boolean, got ${goKind(value)}`);
      return;
  }
}

/** A list-map's items must carry their keys (or have them defaulted) and be there once. */
function checkListMap(items: unknown[], schema: Obj, path: string, errors: string[]): void {
  const keys = Array.isArray(schema["x-kubernetes-list-map-keys"])
    ? (schema["x-kubernetes-list-map-keys"] as string[])
    : [];
  const itemSchema = isObj(schema.items) ? schema.items : {};
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (!isObj(item)) return;
    const missing = keys.find((k) => item[k] === undefined && propertyDefault(itemSchema, k) === undefined);
    if (missing !== undefined) {
      errors.push(
        `${path}: element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(missing)} (and doesn't have default value)`,
      );
      return;
    }
    const id = keys.map((k) => `${k}=${JSON.stringify(item[k] ?? propertyDefault(itemSchema, k))}`).join(",");
    if (seen.has(id)) errors.push(`${path}: duplicate entries for key [${id}]`);
    seen.add(id);
  });
}

function propertyDefault(schema: Obj, key: string): unknown {
  const property = isObj(schema.properties) ? schema.properties[key] : undefined;
  return isObj(property) ? property.default : undefined;
}

/** ObjectMeta's labels and annotations are maps of strings. */
function checkMetadata(metadata: unknown, errors: string[]): void {
  if (!isObj(metadata)) return void errors.push(`.metadata: expected map, got &{${goValue(metadata)}}`);
  for (const field of ["labels", "annotations"]) {
    const map = metadata[field];
    if (!isObj(map)) continue;
    for (const [key, value] of Object.entries(map))
      if (typeof value !== "string" && value !== null)
        errors.push(`.metadata.${field}.${key}: expected string, got ${unstructured(value)}`);
  }
}

/** Go's %v of a decoded JSON value: `x`, `5`, `[a b]`, `map[a:1]`. */
function goValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goValue).join(" ")}]`;
  if (isObj(value))
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goValue(value[k])}`)
      .join(" ")}]`;
  return String(value);
}

/** How structured-merge-diff prints a scalar it did not expect. */
function unstructured(value: unknown): string {
  return `&value.valueUnstructured{Value:${goValue(value)}}`;
}

function goKind(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "list";
  return isObj(value) ? "map" : "float";
}
