import type { AnyManagedKind } from "./kind.ts";

/** What a batched read answers for an href the index did not show: ask the object itself. */
export const NOT_LISTED = Symbol("not listed");

export interface BatchedReadsOptions {
  /**
   * How long the first read of a batch waits for others to join it: every object of one kind
   * and scope read in that window costs one index call together.
   */
  windowMs?: number;
  /**
   * Wraps a wait that holds no service connection (a read waiting for its batch), so that the
   * reconcile's worker serves another key meanwhile (Workers.lend). Default: the wait as it is.
   */
  idle?: <T>(wait: Promise<T>) => Promise<T>;
  /** Called for each index call made (the operator's counter). */
  onCall?: (kind: string) => void;
}

interface Batch {
  kind: AnyManagedKind;
  client: unknown;
  scope: string;
  waiting: Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }[]>;
  /** Whole listings asked (lookups), answered with every item the index shows. */
  listing: { resolve: (v: unknown[]) => void; reject: (e: unknown) => void }[];
  timer?: NodeJS.Timeout;
  openedAt: number;
  /** Read already, or its read scheduled sooner than its window (flush). */
  hurried: boolean;
}

/**
 * Objects observed through their kind's collection index instead of one show each: the reads of
 * one kind, Account and scope asked within `windowMs` of the first share one index call (a
 * thousand objects created at once cost a few calls, not a thousand). The index holds no object
 * the reconcile would not see in a show; an href it does not list (the service's index lagging,
 * or the object gone) answers NOT_LISTED, and the caller shows that object on its own, so a
 * missing entry never makes an object look gone (which would create it again).
 */
export class BatchedReads {
  private readonly windowMs: number;
  private readonly idle: <T>(wait: Promise<T>) => Promise<T>;
  private readonly onCall: (kind: string) => void;
  private readonly open = new Map<string, Batch>();
  /** How long the last index call of each batch key took (a rate-limited client queues it for seconds). */
  private readonly lastReadMs = new Map<string, number>();

  constructor(options: BatchedReadsOptions = {}) {
    this.windowMs = options.windowMs ?? 150;
    this.idle = options.idle ?? ((wait) => wait);
    this.onCall = options.onCall ?? (() => {});
  }

  /** The object at `href` as the kind's index of `scope` shows it, or NOT_LISTED. */
  read(
    kind: AnyManagedKind,
    account: string,
    client: unknown,
    scope: string,
    href: string,
  ): Promise<unknown> {
    const batch = this.openBatch(kind, account, client, scope);
    const wait = new Promise<unknown>((resolve, reject) => {
      const list = batch.waiting.get(href);
      if (list) list.push({ resolve, reject });
      else batch.waiting.set(href, [{ resolve, reject }]);
    });
    return this.idle(wait);
  }

  /**
   * Every object the kind's index of `scope` shows, from an index call sent after this was asked:
   * it joins only a batch not sent yet (a batch leaves `open` before its call goes). So the
   * listing is as fresh as one the caller would send itself, which is what a lookup after a
   * create whose answer was lost needs: a listing sent earlier (another reconcile's, shared
   * after the fact) could predate that create and miss its object.
   */
  list(kind: AnyManagedKind, account: string, client: unknown, scope: string): Promise<unknown[]> {
    const batch = this.openBatch(kind, account, client, scope);
    return this.idle(new Promise<unknown[]>((resolve, reject) => batch.listing.push({ resolve, reject })));
  }

  /** The batch of this kind, Account and scope not sent yet, opened when there is none. */
  private openBatch(kind: AnyManagedKind, account: string, client: unknown, scope: string): Batch {
    const key = `${kind.kind}\u0000${account}\u0000${scope}`;
    let batch = this.open.get(key);
    // A client changed meanwhile (new credentials): the batch read with the old one goes on its own.
    if (batch && batch.client !== client) batch = undefined;
    if (!batch) {
      batch = {
        kind,
        client,
        scope,
        waiting: new Map(),
        listing: [],
        openedAt: performance.now(),
        hurried: false,
      };
      this.open.set(key, batch);
      // A batch waits at least as long as its last read took, up to 5 s: when calls queue (the
      // --api-rate limit), reads of one kind do not go one per window while the earlier ones wait.
      this.schedule(key, batch, Math.max(this.windowMs, Math.min(5_000, this.lastReadMs.get(key) ?? 0)));
    }
    return batch;
  }

  /**
   * Nothing else is going on that could join the open batches: each is read once it is
   * `minAgeMs` old (reads that came one after another still share a call) instead of at the end
   * of its window.
   */
  flush(minAgeMs = 100): void {
    const now = performance.now();
    for (const [key, batch] of this.open) {
      if (batch.hurried) continue;
      batch.hurried = true;
      clearTimeout(batch.timer);
      this.schedule(key, batch, Math.max(0, batch.openedAt + minAgeMs - now));
    }
  }

  private schedule(key: string, batch: Batch, ms: number): void {
    batch.timer = setTimeout(() => {
      if (this.open.get(key) === batch) this.open.delete(key);
      const started = performance.now();
      void this.read_(batch).finally(() => this.lastReadMs.set(key, performance.now() - started));
    }, ms);
  }

  /** Batches not read yet (footprint: none stays open past its window). */
  get size(): number {
    return this.open.size;
  }

  private async read_(batch: Batch): Promise<void> {
    const { kind, client, scope, waiting, listing } = batch;
    let items: unknown[];
    try {
      this.onCall(kind.kind);
      // Only lookups need the whole listing: the reads need the objects they wait for, and the
      // others are not validated (IndexOptions.wanted), a few of a long collection.
      items = await kind.index!.list(client, scope, listing.length > 0 ? undefined : new Set(waiting.keys()));
    } catch (error) {
      for (const list of waiting.values()) for (const w of list) w.reject(error);
      for (const w of listing) w.reject(error);
      return;
    }
    for (const w of listing) w.resolve(items);
    const byHref = new Map(items.map((item) => [kind.hrefOf(item), item]));
    for (const [href, list] of waiting) {
      const item = byHref.has(href) ? byHref.get(href) : NOT_LISTED;
      for (const w of list) w.resolve(item);
    }
  }
}
