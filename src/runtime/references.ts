import { objectKey } from "./names.ts";

/**
 * Who references whom, kept from the specs the informers deliver: when a target
 * becomes Ready its dependents are re-queued at once (no polling), and a target's
 * deletion waits while dependents exist.
 */
export class ReferenceIndex {
  private readonly targetsOf = new Map<string, Set<string>>();
  private readonly dependentsOf = new Map<string, Set<string>>();

  /** Replaces the references of `dependent` (a queue key) with `targets` (queue keys). */
  set(dependent: string, targets: Iterable<string>): void {
    this.remove(dependent);
    const set = new Set(targets);
    if (set.size === 0) return;
    this.targetsOf.set(dependent, set);
    for (const t of set) {
      let deps = this.dependentsOf.get(t);
      if (!deps) {
        deps = new Set();
        this.dependentsOf.set(t, deps);
      }
      deps.add(dependent);
    }
  }

  remove(dependent: string): void {
    const old = this.targetsOf.get(dependent);
    if (!old) return;
    this.targetsOf.delete(dependent);
    for (const t of old) {
      const deps = this.dependentsOf.get(t);
      deps?.delete(dependent);
      if (deps?.size === 0) this.dependentsOf.delete(t);
    }
  }

  dependents(target: string): string[] {
    return [...(this.dependentsOf.get(target) ?? [])].sort();
  }

  targets(dependent: string): string[] {
    return [...(this.targetsOf.get(dependent) ?? [])];
  }
}

/** Queue key of the Account a managed object uses. */
export function accountKey(namespace: string, accountName: string): string {
  return objectKey("Account", namespace, accountName);
}
