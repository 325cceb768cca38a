import type { Logger } from "pino";
import type { Clock } from "./clock.ts";
import { isReported } from "./kube-raw.ts";
import type { OperatorMetrics } from "./metrics.ts";
import { parseKey } from "./names.ts";
import { WorkQueue } from "./queue.ts";
import type { ReconcileOutcome } from "./reconciler.ts";

export interface WorkersOptions {
  clock: Clock;
  log: Logger;
  metrics: OperatorMetrics;
  identity: string;
  concurrency: number;
  resyncMs: number;
  /** Lane of a key in the queue (see WorkQueue): higher first. */
  priority: (key: string) => number;
  /** Queues every cached object; called once the queue exists. */
  enqueueAll: () => void;
  reconcile: (key: string) => Promise<ReconcileOutcome>;
  /** One drift-detection pass. */
  resync: () => unknown;
}

/**
 * What only the leader runs: the work queue, the workers draining it and the periodic resync.
 * Started when this replica leads (or at once without an election), stopped when it stops.
 */
export class Workers {
  private readonly o: WorkersOptions;
  private current: WorkQueue | undefined;
  private workers: Promise<void>[] = [];
  private resyncTimer: { cancel(): void } | undefined;

  constructor(options: WorkersOptions) {
    this.o = options;
  }

  /** The work queue while running; undefined otherwise. */
  get queue(): WorkQueue | undefined {
    return this.current;
  }

  start(): void {
    if (this.current) return;
    this.o.metrics.leader.set(1);
    const queue = new WorkQueue({
      clock: this.o.clock,
      priority: this.o.priority,
      hooks: {
        depth: (d) => this.o.metrics.queueDepth.set(d),
        retry: (key) => this.o.metrics.retries.inc({ kind: parseKey(key).kind }),
      },
    });
    this.current = queue;
    this.o.enqueueAll();
    this.workers = Array.from({ length: this.o.concurrency }, () => this.work(queue));
    this.resyncTimer = this.every(this.o.resyncMs, this.o.resync);
    this.o.log.info({ identity: this.o.identity, concurrency: this.o.concurrency }, "reconciling");
  }

  /** Stops taking work and waits up to `timeoutMs` for the reconciles in flight. */
  async stop(timeoutMs: number): Promise<void> {
    const queue = this.current;
    if (!queue) return;
    this.current = undefined;
    this.o.metrics.leader.set(0);
    this.resyncTimer?.cancel();
    queue.shutdown();
    const workers = this.workers;
    this.workers = [];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(workers),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (queue.inFlight > 0)
      this.o.log.warn({ inFlight: queue.inFlight }, "stopped with reconciles still in flight");
  }

  private async work(queue: WorkQueue): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      let result: ReconcileOutcome;
      try {
        result = await this.o.reconcile(key);
      } catch (error) {
        // A status write the apiserver refused, or could not take: logged once per cause (RawKube).
        if (isReported(error)) this.o.log.debug({ key }, "reconcile failed on an apiserver call");
        else this.o.log.error({ err: error, key }, "reconcile threw");
        result = { retry: true };
      }
      if (result.gone) queue.drop(key);
      else if (result.retry) queue.addRateLimited(key);
      else {
        queue.forget(key);
        if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0)
          queue.addAfter(key, result.requeueAfterMs);
      }
      queue.done(key);
    }
  }

  private every(ms: number, fn: () => unknown): { cancel(): void } {
    let cancelled = false;
    let handle: unknown;
    const tick = () => {
      handle = this.o.clock.setTimeout(async () => {
        try {
          await fn();
        } catch (error) {
          this.o.log.warn({ err: error }, "periodic task failed");
        }
        if (!cancelled) tick();
      }, ms);
    };
    tick();
    return {
      cancel: () => {
        cancelled = true;
        this.o.clock.clearTimeout(handle);
      },
    };
  }
}
