import { type Clock, type Footprint, keyed, systemClock } from "../../lib/index.ts";
import { FairLane } from "./fair-lane.ts";

export interface BackoffOptions {
  /** First retry delay. */
  baseMs: number;
  /** Longest retry delay. */
  maxMs: number;
}

/**
 * Where the lanes of urgent keys start: above every lane of the priorities the operator gives
 * (levels of its kinds), below only the highest there is (the operator's Accounts).
 */
const URGENT_PRIORITY = 2 ** 40;

export const defaultBackoff: BackoffOptions = { baseMs: 5, maxMs: 5 * 60_000 };

export interface WorkQueueHooks {
  /** Called whenever the number of waiting keys changes. */
  depth?(depth: number): void;
  /** Called when a key is re-queued after a failure. */
  retry?(key: string): void;
}

/** Keys of one priority, fair across flows (fair-lane.ts). */
interface Lane {
  priority: number;
  keys: FairLane;
}

/**
 * A work queue with client-go's guarantees: a key waits at most once (dedup), a key
 * is never handed to two workers at once (a key added while processing is queued
 * again after `done`), per-key exponential backoff for failures, reset by `forget`.
 * `priority` sorts waiting keys into lanes (few distinct values), served highest first: with a
 * backlog, what others wait for goes ahead. Within a lane the flows (`flow`: the operator's is
 * the namespace) take turns, each first in first out: one flow's backlog delays another's keys of
 * the same lane by one key per turn, not by the whole backlog (API Priority and Fairness's priority
 * levels and flows, with one key for a request).
 */
export class WorkQueue {
  /** Lanes by descending priority. */
  private readonly lanes: Lane[] = [];
  private waitingCount = 0;
  private readonly priority: (key: string) => number;
  private readonly flow: (key: string) => string;
  private readonly waiting = new Set<string>();
  /** Waiting keys queued urgent (see add). */
  private readonly urgent = new Set<string>();
  private readonly processing = new Set<string>();
  /** Keys added while being processed: queued again on done(). */
  private readonly dirty = new Set<string>();
  /** Of the keys being processed, those taken from the urgent lane or added urgent meanwhile. */
  private readonly urgentProcessing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; handle: unknown }>();
  private readonly getters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;
  private readonly clock: Clock;
  private readonly backoff: BackoffOptions;
  private readonly hooks: WorkQueueHooks;

  constructor(
    options: {
      clock?: Clock;
      backoff?: BackoffOptions;
      hooks?: WorkQueueHooks;
      priority?: (key: string) => number;
      /** The flow a key belongs to (default: one flow for all, first in first out). */
      flow?: (key: string) => string;
    } = {},
  ) {
    this.priority = options.priority ?? (() => 0);
    this.flow = options.flow ?? (() => "");
    this.clock = options.clock ?? systemClock;
    this.backoff = options.backoff ?? defaultBackoff;
    this.hooks = options.hooks ?? {};
  }

  get length(): number {
    return this.waitingCount;
  }

  private lane(priority: number): Lane {
    let i = 0;
    while (i < this.lanes.length && this.lanes[i]!.priority > priority) i++;
    if (this.lanes[i]?.priority === priority) return this.lanes[i]!;
    const lane = { priority, keys: new FairLane() };
    this.lanes.splice(i, 0, lane);
    return lane;
  }

  /**
   * The lane of a key: its priority; queued urgent, above every lane not urgent (but the top one)
   * and still by its priority among the urgent ones, so that of the dependents one Ready wakes
   * together those with the longest chains after them go first.
   */
  private laneOf(key: string, urgent: boolean): number {
    const priority = this.priority(key);
    return urgent ? Math.min(URGENT_PRIORITY + priority, Number.MAX_SAFE_INTEGER - 1) : priority;
  }

  /** The next waiting key; an entry left behind in a lower lane by `add(key, true)` is passed over. */
  private take(): { key: string; urgent: boolean } {
    for (;;) {
      const key = this.takeEntry();
      if (this.waiting.has(key)) return { key, urgent: this.urgent.delete(key) };
    }
  }

  private takeEntry(): string {
    return this.lanes.find((l) => l.keys.size > 0)!.keys.shift()!;
  }

  /**
   * Queues the key. `urgent`: ahead of every lane but the top one (laneOf), for work that
   * was waiting on something that just happened (a dependent whose reference became Ready): it
   * starts at once instead of behind a backlog. A key already waiting in a lower lane moves up.
   */
  add(key: string, urgent = false): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      // Woken while at work (a parked dependent whose reference turned Ready): still urgent on done.
      if (urgent) this.urgentProcessing.add(key);
      return;
    }
    if (this.waiting.has(key)) {
      if (!urgent || this.urgent.has(key)) return;
      // Its entry in the lower lane stays, passed over once the key is taken (take).
      this.urgent.add(key);
      this.lane(this.laneOf(key, true)).keys.push(this.flow(key), key);
      return;
    }
    this.waiting.add(key);
    if (urgent) this.urgent.add(key);
    this.lane(this.laneOf(key, urgent)).keys.push(this.flow(key), key);
    this.waitingCount++;
    // A worker waiting for a key gets the first one waiting, which need not be this one: keys put
    // back (putBack) may wait while workers do.
    const getter = this.getters.shift();
    if (getter) getter(this.tryGet());
    else this.hooks.depth?.(this.length);
  }

  /** Adds the key after a delay; an earlier pending delay for the same key wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.clock.now() + ms;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    if (existing) this.clock.clearTimeout(existing.handle);
    const handle = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, handle });
  }

  /** Re-queues a failed key after its next backoff delay. */
  addRateLimited(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** n);
    this.hooks.retry?.(key);
    this.addAfter(key, delay);
    return delay;
  }

  /** Resets the key's backoff (after a success). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** A delayed re-add of the key (a retry no longer needed) is cancelled. */
  cancelDelayed(key: string): void {
    const delayed = this.delayed.get(key);
    if (!delayed) return;
    this.clock.clearTimeout(delayed.handle);
    this.delayed.delete(key);
  }

  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /**
   * The object is gone: its backoff and any delayed re-add (a resync requeue, a retry) go too,
   * instead of firing minutes later for a key nothing needs. A key waiting or being processed
   * stays: it was added since, for an object of that name created again.
   */
  drop(key: string): void {
    this.failures.delete(key);
    const delayed = this.delayed.get(key);
    if (delayed) {
      this.clock.clearTimeout(delayed.handle);
      this.delayed.delete(key);
    }
  }

  /** The keys each of the queue's per-key maps holds (see footprint.ts). */
  footprint(): Footprint {
    return {
      "queue.waiting": keyed(this.waiting),
      "queue.processing": keyed(this.processing),
      "queue.dirty": keyed(this.dirty),
      "queue.urgentProcessing": keyed(this.urgentProcessing),
      "queue.failures": keyed(this.failures),
      "queue.delayed": keyed(this.delayed),
    };
  }

  /** Waits for the next key; undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    const key = this.tryGet();
    if (key !== undefined) return Promise.resolve(key);
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** The next waiting key, now; undefined when none waits. */
  tryGet(): string | undefined {
    if (this.length === 0) return undefined;
    const { key, urgent } = this.take();
    if (urgent) this.urgentProcessing.add(key);
    this.waiting.delete(key);
    this.waitingCount--;
    this.processing.add(key);
    this.hooks.depth?.(this.length);
    return key;
  }

  /**
   * A key just taken that its worker cannot start yet (no reconcile slot free): back at the head
   * of its lane, urgent as it was, so that keys queued urgent meanwhile still go before the rest
   * rather than behind every key some waiting worker already holds.
   */
  putBack(key: string): void {
    if (!this.processing.delete(key)) return;
    this.dirty.delete(key);
    const urgent = this.urgentProcessing.delete(key);
    if (this.shuttingDown) return;
    this.waiting.add(key);
    if (urgent) this.urgent.add(key);
    this.lane(this.laneOf(key, urgent)).keys.unshift(key);
    this.waitingCount++;
    this.hooks.depth?.(this.length);
  }

  /** Marks the key finished; if it was added meanwhile it is queued again (urgent if it was added so). */
  done(key: string): void {
    this.processing.delete(key);
    const urgent = this.urgentProcessing.delete(key);
    if (this.dirty.delete(key)) this.add(key, urgent);
  }

  isProcessing(key: string): boolean {
    return this.processing.has(key);
  }

  get inFlight(): number {
    return this.processing.size;
  }

  /** Stops handing out keys; waiting getters resolve with undefined. Pending delays are dropped. */
  shutdown(): void {
    this.shuttingDown = true;
    for (const { handle } of this.delayed.values()) this.clock.clearTimeout(handle);
    this.delayed.clear();
    this.lanes.length = 0;
    this.waitingCount = 0;
    this.waiting.clear();
    this.urgent.clear();
    this.urgentProcessing.clear();
    for (const getter of this.getters.splice(0)) getter(undefined);
  }
}
