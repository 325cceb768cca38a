import { AsyncLocalStorage } from "node:async_hooks";
import { Permits } from "../lib/index.ts";

/**
 * Calls whose answer many reconciles wait on (a batched index read, a shared link check or name
 * lookup) take the next free connection before calls that one reconcile waits on. With a backlog,
 * dozens of creates queue for the connections; a read queued behind them would hold every object
 * of its batch back (their Ready, their dependents) for the whole queue.
 */
const ahead = new AsyncLocalStorage<true>();

/** Runs `work` with its service calls ahead of the others waiting for a connection. */
export function aheadOfOthers<T>(work: () => T): T {
  return ahead.run(true, work);
}

/** Whether calls made here go ahead of others (aheadOfOthers). */
export function callsGoAhead(): boolean {
  return ahead.getStore() === true;
}

/**
 * At most `size` calls on the wire at once (the dispatcher's connections). A free place goes to a
 * call made in `aheadOfOthers` first, else to the call that has waited longest. The wait is not
 * part of a call's timeout, which counts from when it is sent: a backlog makes no call time out.
 */
export class ConnectionGate {
  /** The calls waiting for a place: at most one per reconcile at work (the rate limit is waited out before). */
  private readonly places: Permits;

  constructor(size: number) {
    this.places = new Permits(size);
  }

  async run<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // A caller that gives up while waiting leaves the line: it never takes a place.
    if (!this.places.tryAcquire()) await this.places.acquire(callsGoAhead(), signal);
    try {
      return await send();
    } finally {
      this.places.release();
    }
  }
}
