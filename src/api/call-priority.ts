import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The priority of the service calls made in a piece of work (a reconcile): calls of work that
 * others wait on (a dependent woken by its reference's Ready) take the next free connection
 * before calls of work that nothing waits on, instead of queuing behind them in the pool.
 */
const priority = new AsyncLocalStorage<number>();

/** Runs `work` with its calls at `level` (higher first; 0 is the default). */
export function withCallPriority<T>(level: number, work: () => T): T {
  return priority.run(level, work);
}

export function currentCallPriority(): number {
  return priority.getStore() ?? 0;
}

/**
 * At most `size` calls on the wire at once (the pool's connections); the next free place goes
 * to the waiting call of the highest priority, first come first served within one.
 */
export class PriorityGate {
  private free: number;
  /** Waiting calls by priority, highest first. */
  private readonly waiting: { level: number; queue: (() => void)[] }[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>, level = currentCallPriority()): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.lane(level).push(resolve));
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private lane(level: number): (() => void)[] {
    let i = 0;
    while (i < this.waiting.length && this.waiting[i]!.level > level) i++;
    if (this.waiting[i]?.level !== level) this.waiting.splice(i, 0, { level, queue: [] });
    return this.waiting[i]!.queue;
  }

  private release(): void {
    for (const lane of this.waiting) {
      const next = lane.queue.shift();
      if (next) {
        next();
        return;
      }
    }
    this.free++;
  }
}
