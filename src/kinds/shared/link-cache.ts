import { type Linked, linkHref, selfHref } from "../../api/schemas.ts";
import { ClientCache, type ClientCacheOptions } from "./client-cache.ts";

export interface LinkCacheOptions extends ClientCacheOptions {
  /** The link read from each object, e.g. `network` of a route table. */
  rel: string;
}

/**
 * One link of other service objects, remembered: what a representation does not carry but an
 * object it links to does (a route has no `network` link; its route table does). Entries are
 * kept per service client (see ClientCache). Meant for links the service cannot change (a route
 * table's network is given at its create only), so an entry is good until it expires, and a
 * resync of every route costs no call once the route tables are known.
 */
export class LinkCache {
  private readonly cache: ClientCache<string | undefined>;
  private readonly rel: string;

  constructor(options: LinkCacheOptions) {
    this.cache = new ClientCache(options);
    this.rel = options.rel;
  }

  /** The link of one object: remembered, else one `show` (undefined: the object is gone). */
  one(
    client: object,
    href: string,
    show: (href: string) => Promise<Linked | undefined>,
  ): Promise<string | undefined> {
    return this.cache.get(client, href, () => show(href).then((o) => o && linkHref(o, this.rel)));
  }

  /** A link known without asking (what a referenced custom resource's status shows). */
  remember(client: object, href: string, value: string): void {
    if (!this.cache.peek(client, href)) this.cache.put(client, href, Promise.resolve(value));
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
    const wanted = [...new Set(hrefs)];
    if (wanted.some((h) => !this.cache.peek(client, h))) {
      const all = new Map((await list()).map((o) => [selfHref(o), linkHref(o, this.rel)]));
      // Every object the list shows is remembered, so later batches and single reads find it too.
      for (const [href, value] of all) this.cache.put(client, href, Promise.resolve(value));
      for (const href of wanted) if (!all.has(href)) this.cache.put(client, href, Promise.resolve(undefined));
    }
    const out = new Map<string, string | undefined>();
    for (const href of wanted) out.set(href, await this.cache.peek(client, href));
    return out;
  }
}
