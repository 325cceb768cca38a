import { objectKey } from "./names.ts";

/**
 * Who references whom, kept from the specs the informers deliver: when a target
 * becomes Ready its dependents are re-queued at once (no polling), and a target's
 * deletion waits while dependents exist.
 */
export class ReferenceIndex {
  /** Targets per dependent: a short array (an object names a few others). */
  private readonly targetsOf = new Map<string, readonly string[]>();
  /** Dependents per target, with the one copy of the target's key that the arrays share. */
  private readonly dependentsOf = new Map<string, { key: string; dependents: Set<string> }>();

  /** Replaces the references of `dependent` (a queue key) with `targets` (queue keys). */
  set(dependent: string, targets: Iterable<string>): void {
    const unique = [...new Set(targets)];
    const old = this.targetsOf.get(dependent);
    // Called on every reconcile: unchanged references (the usual case) are left as they are.
    if (old && old.length === unique.length && old.every((t, i) => t === unique[i])) return;
    this.remove(dependent);
    if (unique.length === 0) return;
    const shared = unique.map((t) => {
      let entry = this.dependentsOf.get(t);
      if (!entry) {
        entry = { key: t, dependents: new Set() };
        this.dependentsOf.set(t, entry);
      }
      entry.dependents.add(dependent);
      return entry.key;
    });
    this.targetsOf.set(dependent, shared);
  }

  remove(dependent: string): void {
    const old = this.targetsOf.get(dependent);
    if (!old) return;
    this.targetsOf.delete(dependent);
    for (const t of old) {
      const entry = this.dependentsOf.get(t);
      entry?.dependents.delete(dependent);
      if (entry?.dependents.size === 0) this.dependentsOf.delete(t);
    }
  }

  dependents(target: string): string[] {
    return [...(this.dependentsOf.get(target)?.dependents ?? [])].sort();
  }

  targets(dependent: string): string[] {
    return [...(this.targetsOf.get(dependent) ?? [])];
  }
}

/** Queue key of the Account a managed object uses. */
export function accountKey(namespace: string, accountName: string): string {
  return objectKey("Account", namespace, accountName);
}
