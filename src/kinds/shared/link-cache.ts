import { type Linked, linkHref, selfHref } from "../../api/schemas.ts";

interface Entry {
  at: number;
  value: Promise<string | undefined>;
}

export interface LinkCacheOptions {
  /** The link read from each object, e.g. `network` of a route table. */
  rel: string;
  /** How long an answer is kept; the link should be one the service never changes (default 30 min). */
  ttlMs?: number;
  /** Entries kept per service client; the oldest go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * One link of other service objects, remembered: what a representation does not carry but an
 * object it links to does (a route has no `network` link; its route table does). Entries are
 * kept per service client, which is one per Account, so an href never answers for another
 * account, and they go with the client. Meant for links the service cannot change (a route
 * table's network is given at its create only), so an entry is good until it expires, and a
 * resync of every route costs no call once the route tables are known.
 */
export class LinkCache {
  private readonly byClient = new WeakMap<object, Map<string, Entry>>();
  private readonly rel: string;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: LinkCacheOptions) {
    this.rel = options.rel;
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The link of one object: remembered, else one `show` (undefined: the object is gone). */
  one(
    client: object,
    href: string,
    show: (href: string) => Promise<Linked | undefined>,
  ): Promise<string | undefined> {
    const entries = this.entries(client);
    const found = this.fresh(entries, href);
    if (found) return found;
    const value = show(href).then((o) => o && linkHref(o, this.rel));
    this.put(entries, href, value);
    return value;
  }

  /**
   * The link of each object: the ones not remembered come from one `list` call for the whole
   * batch (an index of the objects), not one call each. An object the list does not hold is
   * gone: undefined.
   */
  async many(
    client: object,
    hrefs: Iterable<string>,
    list: () => Promise<Linked[]>,
  ): Promise<Map<string, string | undefined>> {
    const entries = this.entries(client);
    const wanted = [...new Set(hrefs)];
    if (wanted.some((h) => !this.fresh(entries, h))) {
      const listed = list().then((items) => new Map(items.map((o) => [selfHref(o), linkHref(o, this.rel)])));
      // Every object the list shows is remembered, so later batches and single reads find it too.
      const all = await listed;
      for (const [href, value] of all) this.put(entries, href, Promise.resolve(value));
      for (const href of wanted) if (!all.has(href)) this.put(entries, href, Promise.resolve(undefined));
    }
    const out = new Map<string, string | undefined>();
    for (const href of wanted) out.set(href, await this.fresh(entries, href));
    return out;
  }

  private entries(client: object): Map<string, Entry> {
    let entries = this.byClient.get(client);
    if (!entries) {
      entries = new Map();
      this.byClient.set(client, entries);
    }
    return entries;
  }

  private fresh(entries: Map<string, Entry>, href: string): Promise<string | undefined> | undefined {
    const entry = entries.get(href);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      entries.delete(href);
      return undefined;
    }
    return entry.value;
  }

  private put(entries: Map<string, Entry>, href: string, value: Promise<string | undefined>): void {
    entries.delete(href);
    entries.set(href, { at: this.now(), value });
    // A failed read is not remembered: the next one asks again.
    value.catch(() => {
      if (entries.get(href)?.value === value) entries.delete(href);
    });
    while (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
  }
}
