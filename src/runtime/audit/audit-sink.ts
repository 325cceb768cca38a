import type { ObjectRef } from "../client/index.ts";
import type { AuditChange, AuditContext } from "./audit-text.ts";

// What a reconcile hands the audit trail (audit.ts), and all it sees of it.

/** One reconcile's changes to service objects, as the reconcile hands them over. */
export interface AuditBatch {
  context: Omit<AuditContext, "identity">;
  ref: ObjectRef;
  uid: string | undefined;
  /** The Account the reconcile used, in the resource's namespace; its client makes the calls. */
  accountName: string;
  client: unknown;
  /** What the resource's status said when the reconcile began: the entry of the object at `auditee`. */
  known: { auditee: string; entry: string } | undefined;
  changes: AuditChange[];
}

/** What the reconciler sees of the audit trail. */
export interface AuditSink {
  /** Takes a reconcile's changes; returns at once. */
  submit(batch: AuditBatch): void;
  /**
   * Takes the changes of a run about to release its resource (a deletion) and resolves once they
   * are written, or their failure counted and logged; ahead of other objects' calls. Never throws.
   */
  written(batch: AuditBatch): Promise<void>;
  /**
   * Before a service object is deleted: makes sure it has an entry, since the service may refuse
   * an entry for an object that is gone. Makes a call only for an object without one (adopted,
   * or changed only while the trail was off); never throws.
   */
  beforeDelete(batch: Omit<AuditBatch, "changes">, auditee: string): Promise<void>;
}
