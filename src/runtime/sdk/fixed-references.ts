import type { AnyManagedKind } from "./kind.ts";

/**
 * Whether the CRD refuses any change of `field` once set: an immutable field of a kind that does
 * not replace its object (a Subnet's `networkRef`). A kind that replaces (`replace`) lets the field
 * change: admission takes it and the operator makes a new object.
 */
export function isFixedField(kind: Pick<AnyManagedKind, "immutable" | "replace">, field: string): boolean {
  return kind.replace === undefined && (kind.immutable ?? []).includes(field);
}

/**
 * The fields of `spec` (a `kind` resource's, as stored) that name `target` and can never change:
 * while one does, only deleting the resource lets the target go. None for a spec the kind's
 * schema does not take (nothing can be said of its references).
 */
export function fixedReferences(
  kind: Pick<AnyManagedKind, "schema" | "references" | "immutable" | "replace">,
  spec: unknown,
  target: { kind: string; name: string },
): string[] {
  if (kind.replace !== undefined || (kind.immutable ?? []).length === 0) return [];
  const parsed = kind.schema.safeParse(spec ?? {});
  if (!parsed.success) return [];
  return kind
    .references(parsed.data)
    .filter((r) => r.kind === target.kind && r.name === target.name && isFixedField(kind, r.field))
    .map((r) => r.field);
}
