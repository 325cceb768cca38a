import { type Footprint, keyed } from "../../lib/index.ts";

/**
 * Objects that order themselves among each other without naming each other (a user's
 * observer grant and their other roles: ManagedKind.siblings): grouped by kind, namespace
 * and the kind's sibling key, so that when one becomes Ready or goes away the others of
 * its group are re-queued at once instead of polling.
 */
export class SiblingIndex {
  private readonly groupOf = new Map<string, string>();
  private readonly members = new Map<string, Set<string>>();
  /** Members whose Ready the others do not wait for (ManagedKind.leadsSiblings false). */
  private readonly followers = new Set<string>();

  /** Puts the object (a queue key) in `group` (undefined: in none); `leads`: see woken. */
  set(key: string, group: string | undefined, leads = true): void {
    if (this.groupOf.get(key) !== group) this.remove(key);
    if (leads || group === undefined) this.followers.delete(key);
    else this.followers.add(key);
    if (group === undefined || this.groupOf.get(key) === group) return;
    this.groupOf.set(key, group);
    let set = this.members.get(group);
    if (!set) {
      set = new Set();
      this.members.set(group, set);
    }
    set.add(key);
  }

  remove(key: string): void {
    this.followers.delete(key);
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
      "siblings.followers": keyed(this.followers),
      "siblings.members": {
        entries: this.members.size,
        keys: () => [...this.members.values()].flatMap((m) => [...m]),
      },
    };
  }

  /** The members to wake when the object turns Ready: the others of its group if they wait for it, else none. */
  woken(key: string): string[] {
    return this.followers.has(key) ? [] : this.siblings(key);
  }

  /** The other members of the object's group. */
  siblings(key: string): string[] {
    const group = this.groupOf.get(key);
    if (group === undefined) return [];
    return [...(this.members.get(group) ?? [])].filter((k) => k !== key).sort();
  }
}
