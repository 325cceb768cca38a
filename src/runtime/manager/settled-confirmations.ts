import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import type { ObjectStore } from "../client/index.ts";
import type { AnyManagedKind } from "../sdk/index.ts";
import { parseKey } from "../sdk/index.ts";
import type { IndexObserver, Observations } from "./observer.ts";

/**
 * Observations waiting for their reconciles before the next kind is read: a kind's worth at most
 * (3,846 of each of 13 kinds at 50,000) rather than every object's at once.
 */
export const CONFIRM_HELD = 1_024;
/** The longest the next kind waits for those observations to be taken. */
export const CONFIRM_WAIT_MS = 10_000;

export interface SettledConfirmationsOptions {
  kindOf: (kind: string) => AnyManagedKind | undefined;
  store: ObjectStore;
  observer: Pick<IndexObserver, "confirm" | "settled">;
  observations: Pick<Observations, "whenAtMost">;
  /** Queues a key as a wake does (what is not confirmed here, and what is, with its observation). */
  enqueue: (key: string) => void;
  clock: Clock;
  log: Logger;
}

/**
 * The resources an Account's first check releases (every one of them at an operator start): the
 * settled ones are read through their kind's index, one call per scope, one kind after another,
 * and each is queued with what the index showed of it (IndexObserver.confirm); the rest are
 * queued at once. Without it, a restart's reconciles met in batched reads by the window, and a
 * scope of thousands cost a call per batch (4 at 50,000).
 */
export class SettledConfirmations {
  private readonly o: SettledConfirmationsOptions;
  /** Keys to confirm by kind, in the order the kinds came (dependency order). */
  private readonly waiting = new Map<string, string[]>();
  /** The pass under way (until every kind released meanwhile is confirmed). */
  private running: Promise<void> | undefined;

  constructor(options: SettledConfirmationsOptions) {
    this.o = options;
  }

  /**
   * Queues the unsettled keys now and confirms the settled ones in the background; resolves when
   * they are queued too.
   */
  release(keys: Iterable<string>): Promise<void> {
    for (const key of keys) {
      const { kind } = parseKey(key);
      if (this.o.kindOf(kind)?.index && this.settled(key)) {
        const list = this.waiting.get(kind);
        if (list) list.push(key);
        else this.waiting.set(kind, [key]);
      } else this.o.enqueue(key);
    }
    if (!this.running && this.waiting.size > 0) this.running = this.run();
    return this.running ?? Promise.resolve();
  }

  private settled(key: string): boolean {
    const { kind, namespace, name } = parseKey(key);
    const obj = this.o.store.get(kind, namespace, name);
    return obj !== undefined && this.o.observer.settled(obj);
  }

  private async run(): Promise<void> {
    try {
      for (const [kind, keys] of this.waiting) {
        this.waiting.delete(kind);
        await this.confirm(kind, keys);
        if (this.waiting.size > 0)
          await this.o.observations.whenAtMost(CONFIRM_HELD, CONFIRM_WAIT_MS, this.o.clock);
      }
    } finally {
      this.running = undefined;
    }
  }

  /**
   * The keys' objects as the cache holds them now (one no longer settled is queued as it is, by
   * IndexObserver.confirm; one gone is queued to be found gone). Never throws: on a failure every
   * key is queued, and its reconcile reads for itself.
   */
  private async confirm(kind: string, keys: string[]): Promise<void> {
    try {
      const objects = [];
      for (const key of keys) {
        const { namespace, name } = parseKey(key);
        const obj = this.o.store.get(kind, namespace, name);
        if (obj) objects.push(obj);
        else this.o.enqueue(key);
      }
      await this.o.observer.confirm(this.o.kindOf(kind)!, objects);
    } catch (error) {
      this.o.log.warn({ kind, error: String(error) }, "settled objects queued unconfirmed");
      for (const key of keys) this.o.enqueue(key);
    }
  }
}
