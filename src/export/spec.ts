import type { Item } from "../inventory/index.ts";
import { schemaOf } from "../runtime/crd/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";

/** Spec fields that say how the operator manages an object, not what the object is. */
export const MANAGEMENT_FIELDS = new Set(["accountRef", "deletionPolicy", "managementPolicy"]);

export interface Shape {
  /** The spec's top-level fields, in the schema's order. */
  fields: string[];
  /**
   * `xRef: {name}` fields and the kind each names; `afterCreate` for an association the update
   * after the create makes (Reference.afterCreate), which waits for nothing and closes no cycle.
   */
  refs: { field: string; kind: string; afterCreate: boolean }[];
}

const shapes = new WeakMap<AnyManagedKind, Shape>();

/**
 * A kind's spec fields, read from its schema (what a user can set), and its references, asked of
 * the kind itself: `references` of a spec naming only that reference says which kind it names.
 */
export function shapeOf(kind: AnyManagedKind): Shape {
  let shape = shapes.get(kind);
  if (shape) return shape;
  const properties = (schemaOf(kind.schema).properties ?? {}) as Record<string, { properties?: object }>;
  const fields = Object.keys(properties);
  const refs: Shape["refs"] = [];
  for (const field of fields) {
    const names = properties[field]?.properties as Record<string, unknown> | undefined;
    if (!field.endsWith("Ref") || MANAGEMENT_FIELDS.has(field) || !names?.name) continue;
    try {
      const named = kind.references({ [field]: { name: "probe" } }).find((r) => r.field === field);
      if (named) refs.push({ field, kind: named.kind, afterCreate: named.afterCreate === true });
    } catch {
      // A kind whose references need more of the spec: that reference is not used by export.
    }
  }
  shape = { fields, refs };
  shapes.set(kind, shape);
  return shape;
}

/** Empty lists and maps say nothing the service holds: left out, so they stay unmanaged. */
function meaningful(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/**
 * The spec of a service object, from what the service shows: every member of `status.atProvider`
 * named as a spec field (the field tables name them alike: a row's atProvider key is its spec
 * field unless the kind says otherwise), and what the kind's export hook adds. Read-only members
 * (states, allocated addresses) are no spec field and stay out; write-only values the service never
 * shows cannot be read and stay out (the operator then takes the spec as applied).
 */
export function specFromService(item: Item, manifestName: string): Record<string, unknown> {
  const { fields } = shapeOf(item.kind);
  const from = { ...item.at, ...item.kind.export?.spec?.(item.observed, manifestName) };
  const spec: Record<string, unknown> = {};
  for (const field of fields) {
    if (MANAGEMENT_FIELDS.has(field)) continue;
    if (meaningful(from[field])) spec[field] = from[field];
  }
  return spec;
}

/** Every service href a value holds (strings starting with /api/), sorted. */
export function hrefsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (value.startsWith("/api/")) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) hrefsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) hrefsIn(v, out);
  return out.sort();
}
