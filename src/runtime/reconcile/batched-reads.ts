import { aheadOfOthers } from "../../api/index.ts";
import type { AnyManagedKind } from "../sdk/index.ts";

/** What a batched read answers for an href the index did not show: ask the object itself. */
export const NOT_LISTED = Symbol("not listed");

/** The objects a batch must hold to be read once its creates have answered, before its window ends. */
const EARLY_BATCH = 16;
/** The most a batch is held back: by its key's last read (notBefore), or by its key's call in flight. */
const MAX_HOLD_MS = 5_000;

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
  /** How long a batch opened by a `soon` read waits for others (default 20 ms). */
  soonMs?: number;
  /**
   * The longest a batch due waits for its key's index call in flight (default 5 s): one call per
   * key at a time, but one that hangs does not hold the others back until its timeout.
   */
  maxWaitForCallMs?: number;
  /** Called for each index call made (the operator's counter). */
  onCall?: (kind: string) => void;
}

interface Batch {
  /** Kind, Account and scope (batchKey): its entry in `open`, `lastReadMs` and `expected`. */
  key: string;
  kind: AnyManagedKind;
  client: unknown;
  scope: string;
  waiting: Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }[]>;
  /** Whole listings asked (lookups), answered with every item the index shows. */
  listing: { resolve: (v: unknown[]) => void; reject: (e: unknown) => void }[];
  timer?: NodeJS.Timeout;
  openedAt: number;
  /** When its index call is due (performance.now() time); moved only earlier (hurry). */
  dueAt: number;
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
  private readonly soonMs: number;
  private readonly maxWaitForCallMs: number;
  private readonly idle: <T>(wait: Promise<T>) => Promise<T>;
  private readonly onCall: (kind: string) => void;
  private readonly open = new Map<string, Batch>();
  /** How long the last index call of each batch key took (a rate-limited client queues it for seconds). */
  private readonly lastReadMs = new Map<string, number>();
  /** Per batch key, its index calls in flight and when the last of them was sent (see send). */
  private readonly reading = new Map<string, { calls: number; since: number }>();
  /** Per batch key, the creates sent whose reads have not joined a batch yet (see expect). */
  private readonly expected = new Map<string, number>();

  constructor(options: BatchedReadsOptions = {}) {
    this.windowMs = options.windowMs ?? 150;
    this.soonMs = options.soonMs ?? 20;
    this.maxWaitForCallMs = options.maxWaitForCallMs ?? MAX_HOLD_MS;
    this.idle = options.idle ?? ((wait) => wait);
    this.onCall = options.onCall ?? (() => {});
  }

  /**
   * The object at `href` as the kind's index of `scope` shows it, or NOT_LISTED. `soon`: the reads
   * that may share its call come within a few milliseconds of each other (looks at pending objects,
   * falling on one grid of the clock), so its batch is read `soonMs` after it opened.
   */
  read(
    kind: AnyManagedKind,
    account: string,
    client: unknown,
    scope: string,
    href: string,
    soon = false,
  ): Promise<unknown> {
    const batch = this.openBatch(kind, account, client, scope);
    const wait = new Promise<unknown>((resolve, reject) => {
      const list = batch.waiting.get(href);
      if (list) list.push({ resolve, reject });
      else batch.waiting.set(href, [{ resolve, reject }]);
    });
    if (soon) this.hurry(batch, Math.max(batch.openedAt + this.soonMs, this.notBefore(batch)));
    return this.idle(wait);
  }

  /**
   * A create of this kind, Account and scope is about to be sent, and its read will follow.
   * Returns what to call once that read has joined its batch (or will not come). When the last
   * read expected has joined, an open batch of EARLY_BATCH objects or more is read at once instead
   * of at the end of its window: the window is there for the reads of creates still in flight, and
   * none is left. So a wave of objects created together (parents their dependents wait for) is seen
   * as soon as its last create has answered, still through one index call.
   */
  expect(kind: AnyManagedKind, account: string, scope: string): () => void {
    const key = batchKey(kind, account, scope);
    this.expected.set(key, (this.expected.get(key) ?? 0) + 1);
    let joined = false;
    return () => {
      if (joined) return;
      joined = true;
      const left = this.expected.get(key)! - 1;
      if (left > 0) {
        this.expected.set(key, left);
        return;
      }
      this.expected.delete(key);
      const batch = this.open.get(key);
      // Only a batch that holds many objects goes early: one more call costs each little, and the
      // few objects of small waves keep sharing a window's call.
      if (batch && batch.waiting.size >= EARLY_BATCH)
        this.hurry(batch, Math.max(performance.now(), this.notBefore(batch)));
    };
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
    const key = batchKey(kind, account, scope);
    let batch = this.open.get(key);
    // A client changed meanwhile (new credentials): the batch read with the old one goes on its own.
    if (batch && batch.client !== client) {
      // Waiting for its key's call in flight (send): it goes on its own, no longer in `open`.
      if (batch.dueAt === Number.POSITIVE_INFINITY) this.hurry(batch, performance.now());
      batch = undefined;
    }
    if (!batch) {
      batch = {
        key,
        kind,
        client,
        scope,
        waiting: new Map(),
        listing: [],
        openedAt: performance.now(),
        dueAt: Number.POSITIVE_INFINITY,
      };
      this.open.set(key, batch);
      this.hurry(batch, Math.max(batch.openedAt + this.windowMs, this.notBefore(batch)));
    }
    return batch;
  }

  /**
   * Nothing else is going on that could join the open batches: each is read once it is
   * `minAgeMs` old (reads that came one after another still share a call) instead of at the end
   * of its window.
   */
  flush(minAgeMs = 100): void {
    for (const batch of this.open.values()) this.hurry(batch, batch.openedAt + minAgeMs);
  }

  /**
   * A batch waits at least as long as its key's last read took, up to 5 s: when calls queue (the
   * --api-rate limit), reads of one kind do not go one per window (or one per create, or per
   * look) while the earlier ones wait.
   */
  private notBefore(batch: Batch): number {
    return batch.openedAt + Math.min(MAX_HOLD_MS, this.lastReadMs.get(batch.key) ?? 0);
  }

  /** Schedules the batch's index call at `dueAt`, unless it is due sooner already. */
  private hurry(batch: Batch, dueAt: number): void {
    if (dueAt >= batch.dueAt) return;
    batch.dueAt = dueAt;
    clearTimeout(batch.timer);
    batch.timer = setTimeout(() => this.send(batch), Math.max(0, dueAt - performance.now()));
  }

  /**
   * Sends the batch's index call. One call per key at a time: a batch due while its key's call
   * is in flight stays open, taking reads, and goes when that call has answered. Calls waiting
   * for the --api-rate limit take seconds, and no call has answered yet to tell notBefore so:
   * without this, a wave of creates sent its reads one window (a few objects) at a time.
   */
  private send(batch: Batch, waited = false): void {
    const { key } = batch;
    const current = this.open.get(key) === batch;
    const inFlight = this.reading.get(key);
    if (current && inFlight && !waited) {
      batch.dueAt = Number.POSITIVE_INFINITY;
      // A call that hangs (until its timeout) holds the next batch back no longer than this.
      const wait = inFlight.since + this.maxWaitForCallMs - performance.now();
      batch.timer = setTimeout(() => this.send(batch, true), Math.max(0, wait));
      return;
    }
    if (current) this.open.delete(key);
    const started = performance.now();
    this.reading.set(key, { calls: (inFlight?.calls ?? 0) + 1, since: started });
    void this.read_(batch).finally(() => {
      const reading = this.reading.get(key)!;
      if (reading.calls > 1) reading.calls--;
      else this.reading.delete(key);
      this.lastReadMs.set(key, performance.now() - started);
      const next = this.open.get(key);
      if (next?.dueAt === Number.POSITIVE_INFINITY) this.hurry(next, performance.now());
    });
  }

  /** Batches not read yet (footprint: none stays open past its window and its key's call in flight). */
  get size(): number {
    return this.open.size;
  }

  /** Batch keys with creates in flight whose reads have not joined yet (footprint: each goes at its last). */
  get expecting(): number {
    return this.expected.size;
  }

  private async read_(batch: Batch): Promise<void> {
    const { kind, client, scope, waiting, listing } = batch;
    let items: unknown[];
    try {
      this.onCall(kind.kind);
      // Only lookups need the whole listing: the reads need the objects they wait for, and the
      // others are not validated (IndexOptions.wanted), a few of a long collection.
      // Every object of the batch waits on this call: it takes the next free connection.
      const wanted = listing.length > 0 ? undefined : new Set(waiting.keys());
      items = await aheadOfOthers(() => kind.index!.list(client, scope, wanted));
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

function batchKey(kind: AnyManagedKind, account: string, scope: string): string {
  return `${kind.kind}\u0000${account}\u0000${scope}`;
}
