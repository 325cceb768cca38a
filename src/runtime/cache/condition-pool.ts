import type { Condition } from "../sdk/index.ts";

/**
 * Shares equal status conditions, and equal lists of them, between the objects the informer
 * caches hold. JSON.parse gives every object four conditions of its own (72 B each, plus the list),
 * though nearly all say the same thing: Ready/Available, Synced/ReconcileSuccess, Reconciling and
 * Stalled/Idle, at one of the few seconds (conditionTime) the resources last changed in. 10,000
 * resources: 40,000 condition objects and 10,000 lists become a few hundred of each.
 *
 * Pooled conditions and lists are frozen: the caches are read-only, and a write to a shared one
 * would change every object that holds it (the reconciler works on copies, reconcile/run.ts).
 * A condition with another field, or a value of another type, is left as it is. Bounded like the
 * StringPool: it starts over once it holds `size` lists.
 */
export class ConditionPool {
  private conditions = new Map<string, Condition>();
  private lists = new Map<string, readonly Condition[]>();
  private readonly size: number;

  constructor(options: { size?: number } = {}) {
    this.size = options.size ?? 1024;
  }

  /** The pooled copy of `list` when every item is a plain condition, else `list` itself. */
  intern(list: unknown): unknown {
    if (!Array.isArray(list)) return list;
    const keys: string[] = [];
    for (const c of list) {
      const key = conditionKey(c);
      if (key === undefined) return list;
      keys.push(key);
    }
    const listKey = keys.join(",");
    const pooled = this.lists.get(listKey);
    if (pooled !== undefined) return pooled;
    if (this.lists.size >= this.size) {
      this.lists = new Map();
      this.conditions = new Map();
    }
    const shared = Object.freeze(list.map((c: Condition, i) => this.one(keys[i]!, c)));
    this.lists.set(listKey, shared);
    return shared;
  }

  get length(): number {
    return this.lists.size + this.conditions.size;
  }

  private one(key: string, c: Condition): Condition {
    const pooled = this.conditions.get(key);
    if (pooled !== undefined) return pooled;
    const frozen = Object.freeze(c);
    this.conditions.set(key, frozen);
    return frozen;
  }
}

const FIELDS = new Set(["type", "status", "reason", "message", "lastTransitionTime", "observedGeneration"]);

/** The identity of a plain condition (its JSON: fields in order), or undefined for anything else. */
function conditionKey(c: unknown): string | undefined {
  if (c === null || typeof c !== "object" || Array.isArray(c)) return undefined;
  for (const field in c) {
    if (!FIELDS.has(field)) return undefined;
    const value = (c as Record<string, unknown>)[field];
    if (field === "observedGeneration" ? typeof value !== "number" : typeof value !== "string")
      return undefined;
  }
  return JSON.stringify(c);
}
