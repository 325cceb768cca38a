import type { AuditAction, AuditBatch, AuditChange, AuditSink, FieldChange } from "../audit/index.ts";
import type { ObjectRef } from "../client/index.ts";

/** The audit trail's note on a deletion that found its object gone from the service already. */
const FOUND_GONE = "found already gone from the service";

/** Whose changes they are: the resource, the run, and the Account whose client the run used. */
export interface RunAuditTarget {
  ref: ObjectRef;
  uid: string | undefined;
  reconcileId: string;
  /** None when the run made no service call: then it changed nothing either. */
  account: { name: string; client: unknown } | undefined;
}

/**
 * What one run changed in the service, for the audit trail (audit/): the changes, the spec fields
 * whose values are masked, and the entry the resource had when the run began. Handed over when the
 * run ends, or written before its resource goes (a deletion is done once its line is written).
 */
export class RunAudit {
  private readonly changes: AuditChange[] = [];
  /** Spec fields whose values the trail masks: the kind's write-only ones, and those read from keys. */
  private readonly writeOnly = new Set<string>();
  private readonly sink: AuditSink | undefined;
  /** The resource's audit entry as the run found it, and the service object it is for. */
  private readonly known: AuditBatch["known"];

  constructor(sink: AuditSink | undefined, known: AuditBatch["known"]) {
    this.sink = sink;
    this.known = known;
  }

  mask(field: string): void {
    this.writeOnly.add(field);
  }

  /** A change made to a service object; `masked`: spec fields whose values it must not show. */
  add(change: {
    action: AuditAction;
    auditee: string;
    fields: FieldChange[];
    at: number;
    note?: string;
    masked?: readonly string[];
  }): void {
    if (!this.sink) return;
    const { masked, note, ...rest } = change;
    for (const field of masked ?? []) this.writeOnly.add(field);
    this.changes.push({ ...rest, ...(note ? { note } : {}) });
  }

  /** The object was gone already when its deletion came (deleted with what held it). */
  addFoundGone(auditee: string, at: number): void {
    if (this.sink)
      this.changes.push({ action: "deleted", auditee, fields: [], at, note: FOUND_GONE, foundGone: true });
  }

  /** Whose calls they are, without the changes (AuditSink.beforeDelete); none without an Account. */
  batch(target: RunAuditTarget): Omit<AuditBatch, "changes"> | undefined {
    const { ref, uid, reconcileId, account } = target;
    if (!account) return undefined;
    const { kind, namespace, name } = ref;
    return {
      context: { kind, namespace, name, reconcileId, writeOnly: [...this.writeOnly] },
      ref,
      uid,
      accountName: account.name,
      client: account.client,
      known: this.known,
    };
  }

  /** Hands the changes over; returns at once (the run's end). */
  submit(target: RunAuditTarget): void {
    const batch = this.batch(target);
    if (batch && this.changes.length > 0) this.sink?.submit({ ...batch, changes: this.changes.splice(0) });
  }

  /** Hands the changes over and waits until they are written, or their failure counted. */
  async written(target: RunAuditTarget): Promise<void> {
    const batch = this.batch(target);
    if (batch && this.changes.length > 0)
      await this.sink?.written({ ...batch, changes: this.changes.splice(0) });
  }
}
