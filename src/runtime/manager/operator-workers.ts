import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import { Permits } from "../../lib/index.ts";
import { isReported } from "../client/index.ts";
import type { ReconcileOutcome } from "../reconcile/index.ts";
import { parseKey } from "../sdk/index.ts";
import type { OperatorMetrics } from "../telemetry/index.ts";
import { WorkQueue } from "./queue.ts";

export interface WorkersOptions {
  clock: Clock;
  log: Logger;
  metrics: OperatorMetrics;
  identity: string;
  concurrency: number;
  resyncMs: number;
  /** Lane of a key in the queue (see WorkQueue): higher first. */
  priority: (key: string) => number;
  /** Flow of a key in its lane (see WorkQueue): the flows of a lane take turns. Default: one flow. */
  flow?: (key: string) => string;
  /** Queues every cached object; called once the queue exists. */
  enqueueAll: () => void;
  reconcile: (key: string) => Promise<ReconcileOutcome>;
  /** One drift-detection pass. */
  resync: () => unknown;
  /**
   * No reconcile is at work and none waits (those left are parked in `lend`): what they wait for
   * may as well go now (BatchedReads.flush) instead of waiting out its window.
   */
  onIdle?: () => void;
  /** Reconciles that may wait with their slot lent at once (default MAX_LENT); past it a wait keeps its slot. */
  maxLent?: number;
}

/**
 * Enough that a batch of reads (BatchedReads) takes thousands of reconciles of a kind, so that
 * an operator start over 50,000 reads each kind's index once or twice; a bound on the state held
 * by parked reconciles, which otherwise grows with the queue.
 */
export const MAX_LENT = 2_048;

/**
 * What only the leader runs: the work queue, the workers draining it and the periodic resync.
 * Started when this replica leads (or at once without an election), stopped when it stops.
 */
export class Workers {
  private readonly o: WorkersOptions;
  private current: WorkQueue | undefined;
  /** Workers running (each a loop until the queue shuts down, or until it is one too many: work). */
  private workers = new Set<Promise<void>>();
  private resyncTimer: { cancel(): void } | undefined;
  private slots: Slots | undefined;
  /** Reconciles parked in lend() now. */
  private lent = 0;
  /** Waiting for the queue to be idle (idleOrAfter). */
  private readonly idleWaiters = new Set<() => void>();

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
      flow: this.o.flow,
      hooks: {
        depth: (d) => this.o.metrics.queueDepth.set(d),
        retry: (key) => this.o.metrics.retries.inc({ kind: parseKey(key).kind }),
      },
    });
    this.current = queue;
    this.o.enqueueAll();
    const slots = new Slots(this.o.concurrency);
    this.slots = slots;
    for (let i = 0; i < this.o.concurrency; i++) this.spawn(queue, slots);
    // Drift detection waits while the queue has work, up to one more period: a converge of
    // thousands just observed what it wrote, and a pass over every object meanwhile would compete
    // with it for the API and the CPU (at 20,000 resources, every 5 s, a tenth of the operator's).
    this.resyncTimer = this.every(this.o.resyncMs, async () => {
      await this.idleOrAfter(this.o.resyncMs);
      if (this.current) await this.o.resync();
    });
    this.o.log.info({ identity: this.o.identity, concurrency: this.o.concurrency }, "reconciling");
  }

  /** Stops taking work and waits up to `timeoutMs` for the reconciles in flight. */
  async stop(timeoutMs: number): Promise<void> {
    const queue = this.current;
    if (!queue) return;
    this.current = undefined;
    this.o.metrics.leader.set(0);
    this.resyncTimer?.cancel();
    for (const done of [...this.idleWaiters]) done();
    queue.shutdown();
    this.slots?.shutdown();
    this.slots = undefined;
    const workers = [...this.workers];
    this.workers.clear();
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

  /**
   * Runs a wait with the reconcile's slot lent to another key meanwhile: `concurrency` counts
   * reconciles at work, not those parked on a wait that holds nothing other keys need — a read
   * waiting for its batch (BatchedReads), an Account's credentials check (its own client's
   * connection, which may hang until its timeout). Back from the wait, the reconcile takes the next
   * free slot before any new key does.
   */
  async lend<T>(wait: Promise<T>): Promise<T> {
    const queue = this.current;
    const slots = this.slots;
    // Past the cap the slot is kept: a restart over 50,000 resources lent one per queued key (each
    // read waiting for its batch) and held every reconcile's state at once, beyond the heap limit.
    if (!queue || !slots || this.lent >= (this.o.maxLent ?? MAX_LENT)) return wait;
    this.lent++;
    // A worker waiting for a slot takes the one lent; else one more worker, should a key come.
    const taker = slots.idle > 0 || slots.starters > 0;
    slots.release();
    if (!taker) this.spawn(queue, slots);
    this.idleCheck(queue, slots);
    try {
      return await wait;
    } finally {
      this.lent--;
      await slots.acquire(true);
    }
  }

  /** Workers alive now (tests: the lent waits' extra workers do not stay). */
  get running(): number {
    return this.workers.size;
  }

  private spawn(queue: WorkQueue, slots: Slots): void {
    const worker = this.work(queue, slots);
    this.workers.add(worker);
    void worker.finally(() => this.workers.delete(worker));
  }

  private async work(queue: WorkQueue, slots: Slots): Promise<void> {
    // Wait for a key before a slot: set after a slot came with no key waiting.
    let keyFirst = true;
    for (;;) {
      let key: string | undefined;
      if (!keyFirst && !slots.anyFree) {
        // Every slot busy (this worker may just have handed its own to one waiting): in line for
        // a slot before taking a key, so keys start in the order slots come free, the queue's.
        key = await this.keyWithSlot(queue, slots);
      } else {
        // The key first, then a slot: a worker waiting for work holds none, so a reconcile back
        // from a lent wait never waits for keys that have not come yet.
        // As many waiting as there are slots take every key a slot can start: one more (started
        // by lend) ends here. Else each lend without a worker waiting left one more for good (a
        // suspended function, its promise and the queue's getter): ~1,500 at 10,000 resources.
        if (slots.idle >= this.o.concurrency) return;
        slots.idle++;
        key = await queue.get();
        slots.idle--;
        if (key === undefined) return;
        if (!slots.tryAcquire()) {
          // Taken meanwhile: the key goes back to its place and this worker waits for a slot
          // without it, so a key queued urgent meanwhile (a dependent woken by its reference's
          // Ready) still starts first, not behind every key the workers waiting would hold.
          queue.putBack(key);
          key = await this.keyWithSlot(queue, slots);
        }
      }
      keyFirst = key === undefined;
      if (key === undefined) continue;
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
        // Ready with nothing to come back for: a retry still pending from before (a wait for a
        // reference that woke it since) would only read the object again; the resync watches it.
        if (result.outcome === "ready" && result.requeueAfterMs === undefined) queue.cancelDelayed(key);
        if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0)
          queue.addAfter(key, result.requeueAfterMs);
      }
      queue.done(key);
      slots.release();
      this.idleCheck(queue, slots);
    }
  }

  /** Waits for a slot, then takes the first key waiting; none waiting: the slot goes back. */
  private async keyWithSlot(queue: WorkQueue, slots: Slots): Promise<string | undefined> {
    await slots.acquire(false);
    const key = queue.tryGet();
    if (key === undefined) slots.release();
    return key;
  }

  private idleCheck(queue: WorkQueue, slots: Slots): void {
    if (!slots.allFree || queue.length > 0) return;
    this.o.onIdle?.();
    for (const done of [...this.idleWaiters]) done();
  }

  /** Resolves once no reconcile is at work or queued, or after `maxMs`, or at stop. */
  private idleOrAfter(maxMs: number): Promise<void> {
    const queue = this.current;
    const slots = this.slots;
    if (!queue || !slots || (slots.allFree && queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.idleWaiters.delete(done);
        this.o.clock.clearTimeout(handle);
        resolve();
      };
      const handle = this.o.clock.setTimeout(done, maxMs);
      this.idleWaiters.add(done);
    });
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

/**
 * The reconciles that may be at work at once (Workers.lend lends one out while it waits): those
 * back from a lent wait take a slot freed before new keys do (the first line).
 */
class Slots extends Permits {
  /** Workers waiting for a key: when none is, lending a slot starts one more. */
  idle = 0;

  /** Workers waiting for a slot to start a key. */
  get starters(): number {
    return this.waitingBehind;
  }

  /** The queue is shut down: every waiter goes on (workers then find no key and end). */
  shutdown(): void {
    this.releaseWaiters();
  }
}
