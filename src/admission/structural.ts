/**
 * Structural pruning and defaulting, in the order the apiextensions-apiserver decoder applies
 * them: unknown fields are dropped (ObjectMeta coerced to its known fields), then nulls of
 * non-nullable fields without a default are dropped, then defaults fill missing fields.
 * All functions mutate the value they are given; callers pass a copy.
 */
import { additionalSchema, deepCopy, isObject, type JSONSchemaProps } from "./types.ts";

/** Fields of metav1.ObjectMeta: anything else under metadata is dropped, as the typed round trip does. */
const OBJECT_META_FIELDS = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

function join(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}

function coerceMetadata(meta: unknown, path: string, pruned: string[]): void {
  if (!isObject(meta)) return;
  for (const key of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(key)) {
      delete meta[key];
      pruned.push(join(path, key));
    }
  }
}

/**
 * Drops fields the schema does not know. Returns nothing; the paths of dropped fields
 * ("spec.foo", "spec.items[0].bar") are appended to `pruned` (the server's unknown-field warnings).
 */
export function prune(
  x: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
  path: string,
  pruned: string[],
): void {
  if (isObject(x)) {
    const embedded = isResourceRoot || s?.["x-kubernetes-embedded-resource"] === true;
    for (const key of Object.keys(x)) {
      const childPath = join(path, key);
      if (embedded && (key === "apiVersion" || key === "kind")) continue;
      if (embedded && key === "metadata") {
        coerceMetadata(x[key], childPath, pruned);
        continue;
      }
      const prop = s?.properties?.[key];
      if (prop) {
        prune(x[key], prop, prop["x-kubernetes-embedded-resource"] === true, childPath, pruned);
        continue;
      }
      const ap = s ? additionalSchema(s) : undefined;
      if (ap) {
        prune(x[key], ap, ap["x-kubernetes-embedded-resource"] === true, childPath, pruned);
      } else if (s?.additionalProperties === true || s?.["x-kubernetes-preserve-unknown-fields"]) {
        // kept as is: nothing below an unknown field is known
      } else {
        delete x[key];
        pruned.push(childPath);
      }
    }
  } else if (Array.isArray(x)) {
    if (s?.["x-kubernetes-preserve-unknown-fields"] && !s.items) return;
    x.forEach((item, i) => {
      prune(item, s?.items, s?.items?.["x-kubernetes-embedded-resource"] === true, `${path}[${i}]`, pruned);
    });
  }
}

/** structuraldefaulting.PruneNonNullableNullsWithoutDefaults. */
export function pruneNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    const ap = additionalSchema(s);
    for (const key of Object.keys(x)) {
      const sub = s.properties?.[key] ?? ap;
      if (!sub) continue;
      if (x[key] === null && !sub.nullable && sub.default === undefined) delete x[key];
      else pruneNulls(x[key], sub);
    }
  } else if (Array.isArray(x)) {
    for (const item of x) pruneNulls(item, s.items);
  }
}

function isNonNullableNull(v: unknown, s: JSONSchemaProps | undefined): boolean {
  return v === null && s !== undefined && !s.nullable && s.default !== undefined;
}

/** structuraldefaulting.Default: fills missing (or non-nullable null) fields, recursively, incl. inside defaults. */
export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined) continue;
      if (!Object.hasOwn(x, key) || isNonNullableNull(x[key], prop)) x[key] = deepCopy(prop.default);
    }
    const ap = additionalSchema(s);
    for (const key of Object.keys(x)) {
      const prop = s.properties?.[key];
      if (prop) {
        applyDefaults(x[key], prop);
      } else if (ap) {
        if (isNonNullableNull(x[key], ap)) x[key] = deepCopy(ap.default);
        applyDefaults(x[key], ap);
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((item, i) => {
      if (isNonNullableNull(item, s.items)) x[i] = deepCopy(s.items!.default);
      applyDefaults(x[i], s.items);
    });
  }
}
