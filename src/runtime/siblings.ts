import { type Footprint, keyed } from "./footprint.ts";

/**
 * Objects that order themselves among each other without naming each other (a user's
 * observer grant and their other roles: ManagedKind.siblings): grouped by kind, namespace
 * and the kind's sibling key, so that when one becomes Ready or goes away the others of
 * its group are re-queued at once instead of polling.
 */
export class SiblingIndex {
  private readonly groupOf = new Map<string, string>();
  private readonly members = new Map<string, Set<string>>();

  /** Puts the object (a queue key) in `group` (undefined: in none). */
  set(key: string, group: string | undefined): void {
    if (this.groupOf.get(key) === group) return;
    this.remove(key);
    if (group === undefined) return;
    this.groupOf.set(key, group);
    let set = this.members.get(group);
    if (!set) {
      set = new Set();
      this.members.set(group, set);
    }
    set.add(key);
  }

  remove(key: string): void {
    const group = this.groupOf.get(key);
    if (group === undefined) return;
    this.groupOf.delete(key);
    const set = this.members.get(group);
    set?.delete(key);
    if (set?.size === 0) this.members.delete(group);
  }

  /** The per-object maps (see footprint.ts). */
  footprint(): Footprint {
    return {
      "siblings.groupOf": keyed(this.groupOf),
      "siblings.members": {
        entries: this.members.size,
        keys: () => [...this.members.values()].flatMap((m) => [...m]),
      },
    };
  }

  /** The other members of the object's group. */
  siblings(key: string): string[] {
    const group = this.groupOf.get(key);
    if (group === undefined) return [];
    return [...(this.members.get(group) ?? [])].filter((k) => k !== key).sort();
  }
}
