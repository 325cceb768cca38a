/**
 * What the runtime keeps in memory per object, map by map: how many entries, and, for maps keyed
 * by custom resource, which resources (queue keys, `kind/namespace/name`). An operator that runs
 * for months must drop the entries of deleted objects, or its memory grows with every object ever
 * created: `npm test` (test/operator/map-hygiene.test.ts) churns resources and checks that every
 * keyed map holds only objects that still exist, and `npm run soak` prints the sizes every minute
 * (also exported as `svc_operator_runtime_map_entries{map}`).
 */
export interface MapFootprint {
  /** Entries held now. */
  entries: number;
  /** The custom resources the entries are for, when the map is keyed by resource. */
  keys?: () => Iterable<string>;
}

/** Footprints by map name (`queue.delayed`, `owners.byKey`, ...). */
export type Footprint = Record<string, MapFootprint>;

/** A map or set keyed by queue key. */
export function keyed(map: { size: number; keys(): Iterable<string> }): MapFootprint {
  return { entries: map.size, keys: () => map.keys() };
}

/** A map keyed by something else (an href, a uid, a collection): bounded by size or age, not by object. */
export function counted(size: number): MapFootprint {
  return { entries: size };
}

/** Several footprints as one; the entries and keys of maps of the same name (one per kind) add up. */
export function mergeFootprints(...parts: Footprint[]): Footprint {
  const out: Footprint = {};
  for (const part of parts) {
    for (const [name, f] of Object.entries(part)) {
      const had = out[name];
      if (!had) {
        out[name] = f;
        continue;
      }
      const keys = [had.keys, f.keys].filter((k) => k !== undefined);
      out[name] = {
        entries: had.entries + f.entries,
        ...(keys.length > 0 ? { keys: () => keys.flatMap((k) => [...k()]) } : {}),
      };
    }
  }
  return out;
}

/** The entries of keyed maps whose resource is not in `exists`: what a leak looks like. */
export function staleKeys(footprint: Footprint, exists: (key: string) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, f] of Object.entries(footprint)) {
    const stale = [...(f.keys?.() ?? [])].filter((k) => !exists(k));
    if (stale.length > 0) out[name] = stale;
  }
  return out;
}
