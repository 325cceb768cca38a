import type { AuditTask } from "./audit-task.ts";

/**
 * The tasks not done of each service object, in order: a new one waits behind the object's last.
 * Per Account (hrefs are per account), then by the task's own auditee: a key string joining the
 * two was 8% of a task. An object's tasks are a ring through their `next` (its last task leads to
 * its first), and this holds its last: the only list of the trail's tasks, one entry an object,
 * since each queued task is a part of the operator's peak in a converge.
 */
export class ObjectTasks {
  private readonly byAccount = new Map<string, Map<string, AuditTask>>();
  /** Objects with a task not done. */
  size = 0;

  /** The object's last task, if it has one not done. */
  get(account: string, auditee: string): AuditTask | undefined {
    return this.byAccount.get(account)?.get(auditee);
  }

  /** Makes the task its object's last one; whether it is its first (it starts now). */
  push(account: string, task: AuditTask): boolean {
    let tasks = this.byAccount.get(account);
    if (!tasks) {
      tasks = new Map();
      this.byAccount.set(account, tasks);
    }
    const last = tasks.get(task.auditee);
    if (last) {
      task.next = last.next;
      last.next = task;
    } else {
      task.next = task;
      this.size++;
    }
    tasks.set(task.auditee, task);
    return last === undefined;
  }

  /** The object's first task is done: returns its next one (none: the object has none left). */
  done(account: string, task: AuditTask): AuditTask | undefined {
    const tasks = this.byAccount.get(account);
    const last = tasks?.get(task.auditee);
    const next = task.next;
    task.next = undefined;
    if (!tasks || !last || next === undefined) return undefined;
    if (last !== task) {
      last.next = next;
      return next;
    }
    tasks.delete(task.auditee);
    this.size--;
    if (tasks.size === 0) this.byAccount.delete(account);
    return undefined;
  }

  /** Every task not done, object by object, each object's in order. */
  *all(): Generator<AuditTask> {
    for (const tasks of this.byAccount.values()) {
      for (const last of tasks.values()) {
        let task = last.next!;
        while (task !== last) {
          yield task;
          task = task.next!;
        }
        yield last;
      }
    }
  }
}
