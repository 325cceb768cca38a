import { aheadOfOthers } from "../api/connection-gate.ts";
import { counted, type Footprint } from "./footprint.ts";
import type { Link } from "./kind.ts";
import { DependencyNotReadyError } from "./result.ts";

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
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** "account\0href" -> when it was found to exist; Map order is least recently used first. */
  private readonly found = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(options: LinkCheckOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
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
    const results = await Promise.all(links.map((l) => this.exists(account, client, l.href)));
    const missing = links.filter((_, i) => !results[i]);
    if (missing.length === 0) return;
    throw new DependencyNotReadyError(
      missing.map((l) => `spec.${l.field}: ${l.href} does not exist in the service`).join("; "),
      retryAfterMs,
    );
  }

  /** Its maps (see footprint.ts): by account and href, bounded by maxEntries and ttlMs. */
  footprint(): Footprint {
    return { "links.found": counted(this.found.size), "links.inFlight": counted(this.inFlight.size) };
  }

  /** Number of hrefs remembered (for tests and diagnostics). */
  get size(): number {
    return this.found.size;
  }

  private exists(account: string, client: LinkClient, href: string): Promise<boolean> {
    const key = `${account}\u0000${href}`;
    const at = this.found.get(key);
    if (at !== undefined) {
      this.found.delete(key);
      if (this.now() - at < this.ttlMs) {
        this.found.set(key, at);
        return Promise.resolve(true);
      }
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      // Every resource linking to the href waits on this call: it takes the next free connection.
      pending = aheadOfOthers(() => client.exists(href)).then((exists) => {
        if (exists) this.remember(key);
        return exists;
      });
      const settled = () => this.inFlight.delete(key);
      pending.then(settled, settled);
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private remember(key: string): void {
    this.found.delete(key);
    this.found.set(key, this.now());
    for (const oldest of this.found.keys()) {
      if (this.found.size <= this.maxEntries) break;
      this.found.delete(oldest);
    }
  }
}

function isLinkClient(client: unknown): client is LinkClient {
  return typeof client === "object" && client !== null && typeof (client as LinkClient).exists === "function";
}

/**
 * The links of the spec fields named that are set: an href string gives one link, a list of hrefs
 * one per item (`field[i]`). For a kind's `links` hook: `links: (spec) => hrefLinks(spec, [...])`.
 */
export function hrefLinks<S extends object>(spec: S, fields: readonly (keyof S & string)[]): Link[] {
  const out: Link[] = [];
  for (const field of fields) {
    const value: unknown = spec[field];
    if (typeof value === "string" && value !== "") out.push({ field, href: value });
    else if (Array.isArray(value))
      value.forEach((href, i) => {
        if (typeof href === "string" && href !== "") out.push({ field: `${field}[${i}]`, href });
      });
  }
  return out;
}
