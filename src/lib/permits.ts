/**
 * `size` permits and two lines of waiters: a permit freed goes to the first line's longest waiter,
 * else the second's. The service client's connections (calls many wait on, then the rest:
 * connection-gate.ts) and the operator's reconcile slots (reconciles back from a lent wait, then
 * new keys: operator-workers.ts).
 */
export class Permits {
  private free: number;
  private readonly first: (() => void)[] = [];
  private readonly rest: (() => void)[] = [];
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
    this.free = size;
  }

  get allFree(): boolean {
    return this.free === this.size;
  }

  /** A permit is free now (tryAcquire would take it). */
  get anyFree(): boolean {
    return this.free > 0;
  }

  /** Waiters in the second line. */
  get waitingBehind(): number {
    return this.rest.length;
  }

  tryAcquire(): boolean {
    if (this.free === 0) return false;
    this.free--;
    return true;
  }

  /** A permit, waiting in the first line (`first`) or the second; a caller that aborts leaves its line. */
  acquire(first: boolean, signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const line = first ? this.first : this.rest;
      const start = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        line.splice(line.indexOf(start), 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      line.push(start);
    });
  }

  release(): void {
    const next = this.first.shift() ?? this.rest.shift();
    if (next) next();
    else this.free++;
  }

  /** Every waiter goes on without a permit (a shutdown: they then find nothing to do). */
  releaseWaiters(): void {
    for (const waiter of [...this.first.splice(0), ...this.rest.splice(0)]) waiter();
  }
}
