import { selfHref } from "../../api/index.ts";
import type { Linked } from "../../api/schemas.ts";
import { InvalidSpecError } from "../../runtime/result.ts";

/** Lists the named objects of a collection whose name contains `name` (the service's name filter). */
export type ListByName = (name: string) => Promise<Array<Linked & { name: string }>>;

interface Entry {
  href: string;
  at: number;
}

/**
 * Names of rarely-changing service objects (clouds, volume types) resolved to hrefs through
 * their collection index and cached per client and collection: without the cache every
 * reconcile of a Volume named by `volumeType: {name}` would cost an extra call. Names
 * resolve exactly (the index filter is a substring match); none or several is InvalidSpec.
 */
export class NameDirectory {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly byClient = new WeakMap<object, Map<string, Entry>>();

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The href of the object named `name` in `collection` (a cache key such as
   * `/api/clouds/1/volume_types`); `field` is the spec field named in errors.
   */
  async resolve(
    client: object,
    collection: string,
    name: string,
    field: string,
    list: ListByName,
  ): Promise<string> {
    let cache = this.byClient.get(client);
    if (!cache) {
      cache = new Map();
      this.byClient.set(client, cache);
    }
    const key = `${collection}\u0000${name}`;
    const hit = cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.href;
    const found = (await list(name)).filter((o) => o.name === name);
    if (found.length === 0) throw new InvalidSpecError(field, `nothing named "${name}" in ${collection}`);
    if (found.length > 1) {
      throw new InvalidSpecError(
        field,
        `${found.length} objects are named "${name}" in ${collection} (${found.map(selfHref).join(", ")}); use the href instead`,
      );
    }
    const href = selfHref(found[0]!);
    cache.set(key, { href, at: this.now() });
    return href;
  }
}
