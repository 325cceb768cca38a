import { counted, type Footprint } from "../../lib/index.ts";
import type { Link } from "../sdk/index.ts";
import { DependencyNotReadyError, SharedAnswers } from "../sdk/index.ts";

/** What the check needs from an account's service client (the service client's `exists`). */
export interface LinkClient {
  /** True when the object the href names exists; false when the service says it does not. */
  exists(href: string): Promise<boolean>;
}

export interface LinkCheckOptions {
  now?: () => number;
  /** How long an href found to exist is trusted (default: 10 minutes, the default resync period). */
  ttlMs?: number;
  /** Most hrefs remembered; the least recently used go first (default 10,000). */
  maxEntries?: number;
}

/**
 * Checks, before a create, that the service objects a spec links to by raw href exist, so a
 * create the service would refuse for a missing linked object is never sent. Hrefs found to exist
 * are remembered per account (bounded LRU with a TTL), and concurrent checks of one href share one
 * call: a thousand Volumes on /api/clouds/1 cost one GET. A missing href is not remembered (it may
 * be created later): the resource waits (DependencyNotReady) and is checked again on its retry.
 */
export class LinkCheck {
  /** "account\0href" -> whether it exists, while being checked; kept only once found. */
  private readonly found: SharedAnswers<boolean>;

  constructor(options: LinkCheckOptions = {}) {
    this.found = new SharedAnswers({
      ttlMs: options.ttlMs ?? 10 * 60_000,
      maxEntries: options.maxEntries ?? 10_000,
      keep: (exists) => exists,
      now: options.now,
    });
  }

  /**
   * Resolves when every link exists; throws DependencyNotReadyError naming each missing one
   * (`spec.<field>: <href> does not exist in the service`). Other failures propagate.
   * `account` keys the cache ("namespace/accountName"): accounts never share what they found.
   */
  async require(
    account: string,
    client: unknown,
    links: readonly Link[],
    retryAfterMs?: number,
  ): Promise<void> {
    if (links.length === 0) return;
    if (!isLinkClient(client)) {
      throw new TypeError("the account's service client has no exists(href): links cannot be checked");
    }
    const results = await Promise.all(
      links.map((l) => this.found.get(`${account}\u0000${l.href}`, () => client.exists(l.href))),
    );
    const missing = links.filter((_, i) => !results[i]);
    if (missing.length === 0) return;
    throw new DependencyNotReadyError(
      missing.map((l) => `spec.${l.field}: ${l.href} does not exist in the service`).join("; "),
      retryAfterMs,
    );
  }

  /** Its maps (see footprint.ts): by account and href, bounded by maxEntries and ttlMs. */
  footprint(): Footprint {
    return { "links.found": counted(this.found.size) };
  }

  /** Hrefs being checked or remembered as found (for tests and diagnostics). */
  get size(): number {
    return this.found.size;
  }
}

function isLinkClient(client: unknown): client is LinkClient {
  return typeof client === "object" && client !== null && typeof (client as LinkClient).exists === "function";
}
