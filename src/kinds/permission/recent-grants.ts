/**
 * The latest listing of each user's grants this process asked for, kept per service client for
 * a second: the observer-first check before a create reads the listing its reconcile's lookup
 * (adoptExisting) just made, or a sibling's made as recently, instead of listing again. Only
 * that check reads it: whether observer is held needs no fresher listing (a grant revoked since
 * is the service's 422, one made since is what the sibling wake-up brings). A lookup never
 * reads it: after a create whose answer was lost, only a listing sent after this reconcile
 * started is sure to show that create's object (LookupContext.listIndex).
 */
export class RecentGrants<T> {
  private readonly byClient = new WeakMap<object, Map<string, { at: number; value: Promise<T> }>>();
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(options: { now?: () => number; maxAgeMs?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? 1_000;
  }

  /** A listing of `user`'s grants, asked now. */
  put(client: object, user: string, value: Promise<T>): void {
    let map = this.byClient.get(client);
    if (!map) {
      map = new Map();
      this.byClient.set(client, map);
    }
    map.set(user, { at: this.now(), value });
    // A failed listing is not one to reuse.
    value.catch(() => {
      if (map.get(user)?.value === value) map.delete(user);
    });
  }

  /** The latest listing of `user`'s grants asked within maxAgeMs, if any. */
  get(client: object, user: string): Promise<T> | undefined {
    const map = this.byClient.get(client);
    const entry = map?.get(user);
    if (!entry) return undefined;
    if (this.now() - entry.at < this.maxAgeMs) return entry.value;
    map?.delete(user);
    return undefined;
  }
}
