import type { FieldDiff } from "../../runtime/sdk/index.ts";

/** The instances allowed to attach a volume, from its cloud_specific_attributes (absent means none). */
export function allowedInstances(attributes: unknown): string[] {
  const list = (attributes as { allowed_instance_hrefs?: unknown } | null)?.allowed_instance_hrefs;
  return Array.isArray(list) ? list.map(String) : [];
}

/** The allowed-instances row's comparison: as sets (order and repeats aside). */
export function sameAllowed(want: unknown, have: unknown) {
  const desired = [...new Set(want as string[])];
  const observed = (have ?? []) as string[];
  const shown = new Set(observed);
  const same = desired.length === shown.size && desired.every((h) => shown.has(h));
  return same ? undefined : { desired, observed };
}

/** The update of the allowed instances: exactly the hrefs to add and to remove (an empty set is not sent). */
export function allowedChanges(difference: FieldDiff): { add?: string[]; remove?: string[] } {
  const want = new Set(difference.desired as string[]);
  const have = new Set(difference.observed as string[]);
  const add = [...want].filter((h) => !have.has(h)).sort();
  const remove = [...have].filter((h) => !want.has(h)).sort();
  return { ...(add.length > 0 ? { add } : {}), ...(remove.length > 0 ? { remove } : {}) };
}
