import { aheadOfOthers } from "../../api/index.ts";

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

export interface ClientCacheOptions {
  /** How long an answer is kept (default 30 min). */
  ttlMs?: number;
  /** Entries kept per service client; the oldest go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Answers of the service, remembered per service client (one per Account, so an answer never
 * serves another account, and the entries go with the client) for a while: what kinds read
 * about objects they do not manage (a route table's network, the metrics an instance reports),
 * so that a reconcile or a resync costs no call once they are known. Concurrent reads of one key
 * share one call; a failed read is not remembered.
 */
export class ClientCache<T> {
  private readonly byClient = new WeakMap<object, Map<string, Entry<T>>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ClientCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The remembered answer for `key`, else `load()`'s, remembered. Every reconcile reading the key
   * meanwhile waits on that load: its calls take the next free connection (aheadOfOthers).
   */
  get(client: object, key: string, load: () => Promise<T>): Promise<T> {
    const found = this.peek(client, key);
    if (found) return found;
    const value = aheadOfOthers(load);
    this.put(client, key, value);
    return value;
  }

  /** The remembered answer for `key` while fresh, else undefined (and an expired one is dropped). */
  peek(client: object, key: string): Promise<T> | undefined {
    const entries = this.entries(client);
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  put(client: object, key: string, value: Promise<T>): void {
    const entries = this.entries(client);
    entries.delete(key);
    entries.set(key, { at: this.now(), value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    while (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
  }

  private entries(client: object): Map<string, Entry<T>> {
    let entries = this.byClient.get(client);
    if (!entries) {
      entries = new Map();
      this.byClient.set(client, entries);
    }
    return entries;
  }
}
