import { AsyncLocalStorage } from "node:async_hooks";

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

interface Waiter {
  start: () => void;
  /** Set once the caller gave up (aborted): passed over. */
  gone: boolean;
}

/** First in first out, taken from the head without moving the rest. */
class Line {
  private items: Waiter[] = [];
  private head = 0;

  push(w: Waiter): void {
    this.items.push(w);
  }

  /** The first waiter still there, removed; undefined when none is left. */
  shift(): Waiter | undefined {
    while (this.head < this.items.length) {
      const w = this.items[this.head++]!;
      if (this.head === this.items.length || this.head > 1024) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (!w.gone) return w;
    }
    return undefined;
  }
}

/**
 * At most `size` calls on the wire at once (the dispatcher's connections). A free place goes to a
 * call made in `aheadOfOthers` first, else to the call that has waited longest. The wait is not
 * part of a call's timeout, which counts from when it is sent: a backlog makes no call time out.
 */
export class ConnectionGate {
  private free: number;
  private readonly first = new Line();
  private readonly rest = new Line();

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.free > 0) this.free--;
    else await this.place(signal);
    try {
      return await send();
    } finally {
      this.release();
    }
  }

  private place(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        gone: false,
        start: () => {
          signal?.removeEventListener("abort", abort);
          resolve();
        },
      };
      const abort = () => {
        waiter.gone = true;
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      (callsGoAhead() ? this.first : this.rest).push(waiter);
    });
  }

  private release(): void {
    const next = this.first.shift() ?? this.rest.shift();
    if (next) next.start();
    else this.free++;
  }
}
