import type { Simulator } from "../../src/simulator/server.ts";
import { COLLECTIONS } from "./mixed.ts";

type Snapshot = Record<string, Record<string, unknown>[]>;

/** Ids of the objects the seed holds in the managed collections (they are not ours to count). */
export function baseline(sim: Simulator): Set<string> {
  const snap = sim.store.snapshot() as unknown as Snapshot;
  const ids = new Set<string>();
  for (const c of Object.keys(COLLECTIONS)) for (const o of snap[c] ?? []) ids.add(`${c}/${o.id}`);
  return ids;
}

/** Objects of custom resources in the managed collections that were not in the baseline, per collection. */
export function createdObjects(sim: Simulator, seed: Set<string>): Record<string, Record<string, unknown>[]> {
  const snap = sim.store.snapshot() as unknown as Snapshot;
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const c of Object.keys(COLLECTIONS)) {
    out[c] = (snap[c] ?? []).filter((o) => !seed.has(`${c}/${o.id}`) && COLLECTIONS[c]!(o) !== undefined);
  }
  return out;
}

export function countCreated(sim: Simulator, seed: Set<string>): number {
  return Object.values(createdObjects(sim, seed)).reduce((n, l) => n + l.length, 0);
}

/** Identities held by more than one service object: a custom resource created twice. */
export function duplicates(sim: Simulator, seed: Set<string>): string[] {
  const out: string[] = [];
  for (const [c, objects] of Object.entries(createdObjects(sim, seed))) {
    const seen = new Map<string, number>();
    for (const o of objects) {
      const key = COLLECTIONS[c]!(o)!; // createdObjects keeps only objects with an identity
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const [key, n] of seen) if (n > 1) out.push(`${c}: ${n} objects for ${key}`);
  }
  return out;
}
