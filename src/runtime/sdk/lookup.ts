import { counted, type Footprint } from "../../lib/index.ts";
import { DependencyNotReadyError, InvalidSpecError } from "./result.ts";
import { SharedAnswers } from "./shared-answers.ts";

type Named = { name: string; href: string };

/**
 * Name -> href lookups through a collection index (a cloud by name, a volume type by
 * name), cached per account and collection so that a thousand resources naming the
 * same cloud cost one index call per TTL, not a thousand.
 */
export class NameLookup {
  private readonly cache: SharedAnswers<Named[]>;

  constructor(options: { now?: () => number; ttlMs?: number } = {}) {
    this.cache = new SharedAnswers({ ttlMs: options.ttlMs ?? 5 * 60_000, now: options.now });
  }

  /**
   * The href of the one item called `name` in the collection `collectionKey` (include the
   * account in the key). `field` names the spec field for error messages. A missing name
   * waits (it may appear); more than one match is an invalid spec.
   */
  async href(
    collectionKey: string,
    name: string,
    field: string,
    list: () => Promise<Named[]>,
  ): Promise<string> {
    let matches = (await this.cache.get(collectionKey, list)).filter((i) => i.name === name);
    if (matches.length === 0 && (this.cache.age(collectionKey) ?? 0) > 1000) {
      // Not found in a list older than a second: look again once before reporting it.
      this.cache.delete(collectionKey);
      return this.href(collectionKey, name, field, list);
    }
    if (matches.length === 0) {
      throw new DependencyNotReadyError(
        `spec.${field}: no ${collectionKey.split("/").pop()} named "${name}"`,
      );
    }
    matches = [...new Map(matches.map((m) => [m.href, m])).values()];
    if (matches.length > 1) {
      throw new InvalidSpecError(
        field,
        `"${name}" names ${matches.length} objects (${matches.map((m) => m.href).join(", ")}); use the href field instead`,
      );
    }
    return matches[0]!.href;
  }

  /** Its map (see footprint.ts): one entry per account and collection, not per object. */
  footprint(): Footprint {
    return { "names.cache": counted(this.cache.size) };
  }

  invalidate(collectionKey?: string): void {
    if (collectionKey === undefined) this.cache.clear();
    else this.cache.delete(collectionKey);
  }
}
