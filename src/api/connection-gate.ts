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

/**
 * At most `size` calls on the wire at once (the dispatcher's connections). A free place goes to a
 * call made in `aheadOfOthers` first, else to the call that has waited longest. The wait is not
 * part of a call's timeout, which counts from when it is sent: a backlog makes no call time out.
 */
export class ConnectionGate {
  private free: number;
  /**
   * The calls waiting for a place, each its start: at most one per reconcile at work (the rate
   * limit is waited out before), so plain arrays serve.
   */
  private readonly first: (() => void)[] = [];
  private readonly rest: (() => void)[] = [];

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
      const line = callsGoAhead() ? this.first : this.rest;
      const start = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      // A caller that gives up leaves the line: it never takes a place.
      const abort = () => {
        line.splice(line.indexOf(start), 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      line.push(start);
    });
  }

  private release(): void {
    const next = this.first.shift() ?? this.rest.shift();
    if (next) next();
    else this.free++;
  }
}
