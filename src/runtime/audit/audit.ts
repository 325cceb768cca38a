import { isApiError } from "../../api/index.ts";
import { BoundedMap } from "../../lib/index.ts";
import { GoneError } from "../client/index.ts";
import { type AuditCalls, AuditFailure, auditErrorReason, serviceAuditCalls } from "./audit-calls.ts";
import { AuditLosses } from "./audit-losses.ts";
import { ObjectTasks } from "./audit-object-tasks.ts";
import { type AuditTrailOptions, MAX_QUEUED_BYTES } from "./audit-options.ts";
import type { AuditBatch, AuditSink } from "./audit-sink.ts";
import { AccountSlots } from "./audit-slots.ts";
import {
  auditTask,
  cancel,
  cancelled,
  detailOf,
  foundGone,
  refOf,
  summaryOf,
  type AuditTask as Task,
  taskBytes,
} from "./audit-task.ts";
import type { AuditChange } from "./audit-text.ts";

/**
 * The operator's audit trail in the service (spec 4.14): every change the reconciler makes to a
 * service object is recorded in an audit entry whose auditee is that object, one entry per
 * object, its href kept in the resource's `status.auditEntryHref`.
 *
 * Off the reconcile's critical path: a reconcile hands its changes over when it ends (after its
 * status write) and goes on; the calls are made here, one at a time per object (in order, so an
 * append never races the create of its entry) and a few at a time overall (they share the
 * Account's client, its rate limit and connections, with the reconciles). A failure never reaches
 * the reconcile: it is counted (`svc_operator_audit_errors_total`) and logged once per object.
 * A deletion is the exception: its resource goes only once its line is written (or its failure
 * counted), and an Account being deleted keeps its client until its resources' calls are done.
 * A converge of tens of thousands of creates queues a task per object while its reconciles hold
 * the connections; the trail catches up after, so the queue is bounded by the bytes its tasks hold.
 */

export {
  type AuditCalls,
  type AuditErrorReason,
  type AuditMetrics,
  auditErrorReason,
  serviceAuditCalls,
} from "./audit-calls.ts";
export type { AuditTrailOptions } from "./audit-options.ts";
export type { AuditBatch, AuditSink } from "./audit-sink.ts";
export { TASK_BYTES } from "./audit-task.ts";

export class AuditTrail implements AuditSink {
  private readonly o: AuditTrailOptions;
  private readonly calls: AuditCalls;
  /** Entry href per service object (`namespace/account` and auditee href: hrefs are per account). */
  private readonly entries: BoundedMap<string>;
  /** Objects whose audit failure was logged; forgotten on their next success. */
  private readonly logged: BoundedMap<true>;
  /**
   * The tasks of each service object, queued or in flight: a new one waits behind its object's
   * last. At a shutdown that cannot wait for them, each is counted.
   */
  private readonly lastOf = new ObjectTasks();
  /** Tasks queued or in flight, not given up. */
  private pending = 0;
  /** The bytes they hold (taskBytes). */
  private pendingBytes = 0;
  /** Changes given up for a cause that is not about one object (queueFull, shutdown). */
  private readonly losses: AuditLosses;
  /** Calls in flight, tasks waiting for a slot, and tasks not done, per Account. */
  private readonly slots: AccountSlots<Task>;
  /** Called once no task is pending (settled()). */
  private idle: (() => void)[] = [];
  private closed = false;

  constructor(options: AuditTrailOptions) {
    this.o = options;
    this.calls = options.calls ?? serviceAuditCalls;
    this.entries = new BoundedMap(options.maxEntries ?? 10_000);
    this.logged = new BoundedMap(options.maxLogged ?? 1_000);
    this.losses = new AuditLosses(options.metrics);
    this.slots = new AccountSlots(
      () => this.limit(),
      (task) => this.start(task),
    );
  }

  submit(batch: AuditBatch): void {
    if (batch.changes.length === 0 || !this.enabled(batch)) return;
    for (const task of this.tasks(batch)) this.enqueue(task);
  }

  async written(batch: AuditBatch): Promise<void> {
    if (batch.changes.length === 0 || !this.enabled(batch)) return;
    const done: Promise<void>[] = [];
    for (const task of this.tasks(batch)) {
      done.push(
        new Promise<void>((resolve) => {
          task.done = resolve;
        }),
      );
      this.enqueue(task);
    }
    const all = Promise.all(done);
    await (this.o.lend ? this.o.lend(all) : all);
  }

  /** A task per service object the batch changed: nearly always one, which takes the batch's own list. */
  private tasks(batch: AuditBatch): Task[] {
    const first = batch.changes[0]!.auditee;
    if (batch.changes.every((c) => c.auditee === first)) return [this.task(batch, first, batch.changes)];
    // A reconcile may change two objects (a replacement's new one and the old one it deletes).
    const byAuditee = new Map<string, AuditChange[]>();
    for (const change of batch.changes) {
      const list = byAuditee.get(change.auditee) ?? [];
      list.push(change);
      byAuditee.set(change.auditee, list);
    }
    return [...byAuditee].map(([auditee, changes]) => this.task(batch, auditee, changes));
  }

  async beforeDelete(batch: Omit<AuditBatch, "changes">, auditee: string): Promise<void> {
    if (!this.enabled(batch)) return;
    // Known and nothing queued for it (the usual case): no call, no wait. Otherwise the check
    // waits behind the object's queued calls, one of which may be creating its entry.
    const pending = this.lastOf.get(accountOf(batch.ref.namespace, batch.accountName), auditee) !== undefined;
    if (this.entryOf(batch, auditee) !== undefined && !pending) return;
    // On the deletion's critical path: ahead of other objects' calls, and never waited for long
    // (behind a burst of queued calls of its own, the deletion goes on without the entry).
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.o.beforeDeleteWaitMs ?? 10_000);
      timer.unref?.();
    });
    const task = this.task(batch, auditee, []);
    const done = new Promise<void>((resolve) => {
      task.done = resolve;
    });
    this.enqueue(task);
    await Promise.race([done, waited]);
    clearTimeout(timer);
  }

  /** Resolves when every call queued so far has been made (or has failed). */
  async settled(): Promise<void> {
    while (this.lastOf.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /**
   * Resolves when no call for the resources of an Account is pending: one being deleted keeps its
   * client until then (the calls are made with it). Never throws.
   */
  settledFor(namespace: string, accountName: string): Promise<void> {
    return this.slots.settled(`${namespace}/${accountName}`);
  }

  /**
   * Waits up to `timeoutMs` for the calls queued; those not done by then are counted as lost
   * (`shutdown`) and logged, never dropped silently.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref?.();
    });
    await Promise.race([this.settled(), timeout]);
    clearTimeout(timer);
    // Counted one by one, logged in one line (with those refused while it waited): a shutdown
    // behind a burst of changes would otherwise log a line per object.
    const given = [...this.lastOf.all()].filter((task) => !cancelled(task));
    const names: string[] = [];
    for (const task of given) {
      cancel(task);
      this.losses.lost(task.kind, "shutdown");
      const { kind, namespace, name } = task;
      if (names.length < 10) names.push(`${kind} ${namespace}/${name}`);
    }
    const { shutdown: count, ...earlier } = this.losses.tally();
    if (count !== undefined)
      this.o.log.warn(
        {
          count,
          reason: "shutdown",
          first: names,
          ...(Object.keys(earlier).length > 0 ? { alsoLost: earlier } : {}),
        },
        "the operator stopped before these audit calls were done: their changes are not in the service's audit trail",
      );
    // What waits for them (a deletion, an Account's) goes on: their failure is counted.
    for (const task of given) task.done?.();
    this.pending = 0;
    this.pendingBytes = 0;
    this.slots.clear();
  }

  /** Whether the resource's Account keeps the trail (`spec.auditTrail`, on unless false). */
  private enabled(batch: Pick<AuditBatch, "ref" | "accountName">): boolean {
    const account = this.o.store.get("Account", batch.ref.namespace, batch.accountName);
    return (account?.spec as { auditTrail?: boolean } | undefined)?.auditTrail !== false;
  }

  /** The entry of the object at `auditee` the trail remembers, or the one the batch says it has. */
  private entryOf(
    batch: Pick<AuditBatch, "ref" | "accountName" | "known">,
    auditee: string,
  ): string | undefined {
    return (
      this.entries.get(entryKey(accountOf(batch.ref.namespace, batch.accountName), auditee)) ??
      (batch.known?.auditee === auditee ? batch.known.entry : undefined)
    );
  }

  private task(batch: Omit<AuditBatch, "changes">, auditee: string, changes: AuditChange[]): Task {
    return auditTask(this.o.identity, batch, auditee, changes);
  }

  private enqueue(task: Task): void {
    if (this.closed) {
      // Counted; drain() logs them with the calls it gives up, in one line.
      this.losses.lost(task.kind, "shutdown");
      task.done?.();
      return;
    }
    if (
      task.done === undefined &&
      this.pendingBytes + taskBytes(task) > (this.o.maxQueuedBytes ?? MAX_QUEUED_BYTES)
    ) {
      this.queueFull(task);
      return;
    }
    this.pending++;
    this.pendingBytes += taskBytes(task);
    this.slots.opened(taskAccount(task));
    if (this.lastOf.push(taskAccount(task), task)) this.schedule(task);
  }

  /** Starts the task when its Account has a slot free; one a reconcile waits for (done) goes first. */
  private schedule(task: Task): void {
    this.slots.take(taskAccount(task), task, task.done !== undefined);
  }

  private start(task: Task): void {
    void this.run(task).then((entry) => this.finish(task, entry));
  }

  /** The entry the task's call went to, if it made one. */
  private async run(task: Task): Promise<string | undefined> {
    try {
      if (cancelled(task)) return undefined;
      const entry = await this.write(task);
      if (!cancelled(task)) this.logged.delete(this.objectId(task));
      return entry;
    } catch (error) {
      // A task given up at shutdown was counted then.
      if (!cancelled(task)) this.failed(task, error);
      return undefined;
    }
  }

  /** Frees the task's slot for the next waiting task, and starts its object's next one. */
  private finish(task: Task, entry: string | undefined): void {
    const account = taskAccount(task);
    // One given up at a shutdown was counted out then.
    if (!cancelled(task)) {
      this.pending--;
      this.pendingBytes -= taskBytes(task);
      this.slots.closed(account);
    }
    this.slots.release(account);
    const next = this.lastOf.done(account, task);
    if (next) {
      // Its next call goes to the entry this one wrote: behind a backlog of more objects than
      // the entries remembered (maxEntries), the map may have forgotten it by then.
      if (entry !== undefined) next.entry = entry;
      this.schedule(next);
    }
    task.done?.();
    if (this.lastOf.size === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** One call per task: an append to the object's entry, or a create carrying the first detail. */
  private async write(task: Task): Promise<string | undefined> {
    const { auditee, kind, namespace, name } = task;
    const key = entryKey(taskAccount(task), task.auditee);
    let entry = this.entries.get(key) ?? task.entry;
    const detail = detailOf(task);
    if (summaryOf(task) === undefined && entry !== undefined) return entry;
    // An entry made ahead of a deletion starts empty: the deletion is appended once it is done.
    const summary =
      summaryOf(task) ?? `svc-operator audit trail of ${kind} ${namespace}/${name}`.slice(0, 255);
    if (entry !== undefined) {
      try {
        await this.calls.append(task.client, entry, { detail, summary });
        this.entries.set(key, entry);
        return entry;
      } catch (error) {
        // The entry is gone (deleted in the service): the object gets a new one.
        if (!(isApiError(error) && error.kind === "notFound")) throw error;
        this.entries.delete(key);
      }
    }
    // An object found gone goes only into an entry it has: the service takes none for it now.
    if (foundGone(task)) return undefined;
    entry = await this.calls.create(task.client, { auditee_href: auditee, summary, detail });
    this.entries.set(key, entry);
    await this.persist(task, entry);
    return entry;
  }

  /**
   * Writes the new entry's href to the resource's status, unless the resource has moved on to
   * another service object meanwhile (a replacement): then its own entry comes with its own change.
   */
  private async persist(task: Task, entry: string): Promise<void> {
    const { kind, namespace, name, uid } = task;
    const current = this.o.store.get(kind, namespace, name);
    if (!current || (uid !== undefined && current.metadata.uid !== uid)) return;
    const href = current.status?.href;
    if ((href !== undefined && href !== task.auditee) || current.status?.auditEntryHref === entry) return;
    try {
      await this.o.kube.patchUnread(refOf(task), { status: { auditEntryHref: entry } });
    } catch (error) {
      if (error instanceof GoneError) return;
      throw new AuditFailure("statusWrite", `could not record ${entry} in status.auditEntryHref`, {
        cause: error,
      });
    }
  }

  private limit(): number {
    return this.o.busy?.() ? (this.o.concurrency ?? 2) : (this.o.idleConcurrency ?? 8);
  }

  private objectId(task: Task): string {
    const { kind, namespace, name, uid } = task;
    return [kind, namespace, name, uid ?? ""].join("/");
  }

  /**
   * The queue holds its bound: the change is counted, and only the first of the process is logged
   * (with what the queue holds): a converge beyond it would log a line per object.
   */
  private queueFull(task: Task): void {
    const { kind, namespace, name } = task;
    if (this.losses.lost(kind, "queueFull"))
      this.o.log.warn(
        {
          reason: "queueFull",
          kind,
          namespace,
          name,
          href: task.auditee,
          queued: this.pending,
          queuedBytes: this.pendingBytes,
        },
        "the audit trail's queue is full: changes beyond it are not recorded in the service's audit trail; " +
          'each is counted in svc_operator_audit_errors_total{reason="queueFull"}, only this first one is logged',
      );
  }

  /** Counted every time; logged once per object until a call for it succeeds again. */
  private failed(task: Task, error: unknown): void {
    const reason = auditErrorReason(error);
    const { kind, namespace, name } = task;
    this.o.metrics?.auditError(kind, reason);
    const id = this.objectId(task);
    if (this.logged.get(id)) return;
    this.logged.set(id, true);
    this.o.log.warn(
      { err: error, reason, kind, namespace, name, href: task.auditee },
      "could not write the audit trail in the service; the resource is not affected, further failures for it are only counted",
    );
  }
}

/** An Account as the trail keys its slots and its objects' tasks (`namespace/name`). */
function accountOf(namespace: string, accountName: string): string {
  return `${namespace}/${accountName}`;
}

/** The Account whose slots the task takes. */
function taskAccount(task: Pick<Task, "namespace" | "accountName">): string {
  return accountOf(task.namespace, task.accountName);
}

/**
 * An object's key in the entries: hrefs are per account. Joined, not concatenated: the entries
 * keep it, and a concatenation is a tree of pieces.
 */
function entryKey(account: string, auditee: string): string {
  return [account, auditee].join("\u0000");
}
