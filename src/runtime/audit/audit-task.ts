import type { AuditBatch } from "./audit-sink.ts";
import { type AuditChange, detailText, summaryText } from "./audit-text.ts";

/** What a task keeps of its reconcile's batch: whose calls they are and on which client. */
type Target = Pick<AuditBatch, "ref" | "uid" | "accountName" | "client" | "known">;

/**
 * One object's changes from one reconcile, waiting for its call or making it (audit.ts). A waiting
 * task is only this record (no promise, no suspended function), linked behind the previous task of
 * its object: a converge of thousands of creates queues thousands while its reconciles run, and
 * the trail catches up after. So it is flat and holds its changes as the two texts its call sends,
 * made when it is handed over: the changes' objects (each field, each value a copy of the spec's)
 * and the reconcile's context took more than the texts.
 */
export interface AuditTask extends Target {
  auditee: string;
  /** The call's summary; none for a task without a change (an entry made ahead of a deletion). */
  summary: string | undefined;
  /** The call's detail chunk ("" without a change). */
  detail: string;
  /** Every change found its object gone already: they go only into an entry the object has. */
  foundGone: boolean;
  /** About the bytes the task holds while it waits (the queue's bound counts them). */
  bytes: number;
  cancelled: boolean;
  /** The object's next task: it starts once this one is done. */
  next?: AuditTask;
  /** Called when this task is done (a deletion waits for its entry). */
  done?: () => void;
}

/**
 * About a task's bytes beyond its texts: the record, its ref and auditee, its places in the
 * trail's maps and queues (measured with the heap of 50,000 queued creates: about 340).
 */
export const TASK_BYTES = 360;

/** A task of one object's changes (none: an entry made ahead of a deletion), its texts made now. */
export function auditTask(
  identity: string,
  batch: Omit<AuditBatch, "changes">,
  auditee: string,
  changes: readonly AuditChange[],
): AuditTask {
  const { ref, uid, accountName, client, known } = batch;
  const context = { ...batch.context, identity };
  const summary = changes.length > 0 ? summaryText(context, changes) : undefined;
  const detail = changes.length > 0 ? detailText(context, changes) : "";
  return {
    ref,
    uid,
    accountName,
    client,
    known,
    auditee,
    summary,
    detail,
    foundGone: changes.length > 0 && changes.every((c) => c.foundGone),
    // A character a byte: V8 keeps these texts (JSON of ASCII values, mostly) one byte a character.
    bytes: TASK_BYTES + (summary?.length ?? 0) + detail.length,
    cancelled: false,
  };
}

/**
 * The last task of each service object: a new one waits behind it. Per Account (hrefs are per
 * account), then by the task's own auditee: a key string joining the two was 8% of a task.
 */
export class LastTasks {
  private readonly byAccount = new Map<string, Map<string, AuditTask>>();
  /** Objects with a task not done. */
  size = 0;

  get(account: string, auditee: string): AuditTask | undefined {
    return this.byAccount.get(account)?.get(auditee);
  }

  /** Makes the task its object's last one; returns the one it follows. */
  push(account: string, task: AuditTask): AuditTask | undefined {
    let tasks = this.byAccount.get(account);
    if (!tasks) {
      tasks = new Map();
      this.byAccount.set(account, tasks);
    }
    const last = tasks.get(task.auditee);
    if (!last) this.size++;
    tasks.set(task.auditee, task);
    return last;
  }

  /** The task is done: when it was its object's last one, the object has none left. */
  done(account: string, task: AuditTask): void {
    const tasks = this.byAccount.get(account);
    if (tasks?.get(task.auditee) !== task) return;
    tasks.delete(task.auditee);
    this.size--;
    if (tasks.size === 0) this.byAccount.delete(account);
  }
}
