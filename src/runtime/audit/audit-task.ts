import type { ObjectRef } from "../client/index.ts";
import type { AuditBatch } from "./audit-sink.ts";
import { type AuditChange, detailText, summaryText } from "./audit-text.ts";

/**
 * One object's changes from one reconcile, waiting for its call or making it (audit.ts). A waiting
 * task is only this record (no promise, no suspended function), linked behind the previous task of
 * its object: a converge of thousands of creates queues thousands while its reconciles run, and
 * the trail catches up after. So it is flat, a field a pointer (8 bytes: no pointer compression
 * here), and holds its changes as the one text its call sends (summary and detail joined, split
 * when the call is made), made when it is handed over: the changes' objects and the reconcile's
 * context took more than the text, and each string, each object costs its header besides.
 */
export interface AuditTask {
  /** The resource's (an ObjectRef's fields: the run's ref is an object of its own). */
  kind: string;
  plural: string;
  namespace: string;
  name: string;
  uid: string | undefined;
  accountName: string;
  client: unknown;
  auditee: string;
  /** The object's entry as the resource's status said (AuditBatch.known), or as its previous task made it. */
  entry: string | undefined;
  /** The call's summary then its detail chunk; "" without a change (an entry made ahead of a deletion). */
  text: string;
  /** The summary's length in `text` and the task's flags (FOUND_GONE, CANCELLED), in one small integer. */
  bits: number;
  /**
   * The object's next task, which starts once this one is done; from its last task, its first
   * (ObjectTasks: an object's tasks are a ring, none of their own for the trail's list of them).
   */
  next: AuditTask | undefined;
  /** Called when this task is done (a deletion waits for its entry). */
  done: (() => void) | undefined;
}

/** Every change found its object gone already: they go only into an entry the object has. */
const FOUND_GONE = 1;
/** Given up at a shutdown (counted then). */
const CANCELLED = 2;
/** The bits below the summary's length. */
const FLAG_BITS = 2;

/**
 * About a task's bytes beyond its text: the record, its auditee, its places in the trail's maps
 * and queues (bench/lib/audit-queue-bytes.ts measures them with the heap of 20,000 and 50,000
 * queued creates: 235 to 250).
 */
export const TASK_BYTES = 260;

/** A task of one object's changes (none: an entry made ahead of a deletion), its texts made now. */
export function auditTask(
  identity: string,
  batch: Omit<AuditBatch, "changes">,
  auditee: string,
  changes: readonly AuditChange[],
): AuditTask {
  const { ref, uid, accountName, client, known } = batch;
  const context = { ...batch.context, identity };
  const summary = changes.length > 0 ? summaryText(context, changes) : "";
  // Joined, not concatenated: a concatenation is a tree of both pieces.
  const text = changes.length > 0 ? [summary, detailText(context, changes)].join("") : "";
  const foundGone = changes.length > 0 && changes.every((c) => c.foundGone);
  return {
    kind: ref.kind,
    plural: ref.plural,
    namespace: ref.namespace,
    name: ref.name,
    uid,
    accountName,
    client,
    auditee,
    entry: known?.auditee === auditee ? known.entry : undefined,
    text,
    bits: (summary.length << FLAG_BITS) | (foundGone ? FOUND_GONE : 0),
    next: undefined,
    done: undefined,
  };
}

/** The call's summary; none for a task without a change. */
export function summaryOf(task: AuditTask): string | undefined {
  return task.text === "" ? undefined : task.text.slice(0, task.bits >> FLAG_BITS);
}

/** The call's detail chunk ("" without a change). */
export function detailOf(task: AuditTask): string {
  return task.text.slice(task.bits >> FLAG_BITS);
}

export function foundGone(task: AuditTask): boolean {
  return (task.bits & FOUND_GONE) !== 0;
}

export function cancelled(task: AuditTask): boolean {
  return (task.bits & CANCELLED) !== 0;
}

export function cancel(task: AuditTask): void {
  task.bits |= CANCELLED;
}

/** About the bytes the task holds while it waits (the queue's bound counts them). */
export function taskBytes(task: AuditTask): number {
  // A character a byte: V8 keeps these texts (JSON of ASCII values, mostly) one byte a character.
  return TASK_BYTES + task.text.length;
}

/** The resource the task is about, as the cluster's API takes it. */
export function refOf(task: AuditTask): ObjectRef {
  const { kind, plural, namespace, name } = task;
  return { kind, plural, namespace, name };
}
