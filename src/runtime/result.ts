/**
 * The reconcile contract, controller-runtime style: a reconcile either returns a
 * Result (maybe with RequeueAfter) or throws one of the typed errors below. The
 * generic reconciler maps each of them to conditions, events and requeues in one
 * place (`outcome.ts`); kind modules only throw them.
 */

/** Condition reasons (the `reason` field of Ready/Synced/Reconciling/Stalled). */
export const Reason = {
  Available: "Available",
  Creating: "Creating",
  Updating: "Updating",
  Deleting: "Deleting",
  Observed: "Observed",
  Paused: "Paused",
  DependencyNotReady: "DependencyNotReady",
  DeletionBlocked: "DeletionBlocked",
  InvalidSpec: "InvalidSpec",
  ApiError: "ApiError",
  AmbiguousCreate: "AmbiguousCreate",
  /** Another custom resource manages the href this one names: it never writes or deletes it. */
  AlreadyManaged: "AlreadyManaged",
  ImmutableField: "ImmutableField",
  /** The spec's references lead back to the object itself: none of them can become Ready. */
  ReferenceCycle: "ReferenceCycle",
  NotFound: "NotFound",
  ReconcileSuccess: "ReconcileSuccess",
  ReconcileError: "ReconcileError",
  Progressing: "Progressing",
  Idle: "Idle",
  CredentialsInvalid: "CredentialsInvalid",
  SecretNotFound: "SecretNotFound",
  SecretKeyMissing: "SecretKeyMissing",
} as const;
export type Reason = (typeof Reason)[keyof typeof Reason];

/** Kubernetes Event reasons the operator emits. */
export const EventReason = {
  Created: "Created",
  Updated: "Updated",
  Deleted: "Deleted",
  Orphaned: "Orphaned",
  Adopted: "Adopted",
  Recreated: "Recreated",
  DriftCorrected: "DriftCorrected",
  Replaced: "Replaced",
  CreatePendingResolved: "CreatePendingResolved",
  ReconcileError: "ReconcileError",
  InvalidSpec: "InvalidSpec",
  Stalled: "Stalled",
  DependencyNotReady: "DependencyNotReady",
  DeletionBlocked: "DeletionBlocked",
  CredentialsValid: "CredentialsValid",
  CredentialsInvalid: "CredentialsInvalid",
} as const;
export type EventReason = (typeof EventReason)[keyof typeof EventReason];

export interface Result {
  /** Reconcile the object again after this many milliseconds (0 or absent: not before the next event). */
  requeueAfterMs?: number;
}

/** Base of every typed reconcile error: a stable `code`, a condition reason and `cause` chaining. */
export class ReconcileError extends Error {
  override name = "ReconcileError";
  readonly code: string = "RECONCILE_ERROR";
  readonly reason: Reason;
  constructor(reason: Reason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Do not retry: only a spec change can help. Maps to Stalled=True. */
export class TerminalError extends ReconcileError {
  override name = "TerminalError";
  override readonly code: string = "TERMINAL";
}

/** The spec breaks a rule the CRD schema could not express. Stalled, reason InvalidSpec. */
export class InvalidSpecError extends TerminalError {
  override name = "InvalidSpecError";
  override readonly code = "INVALID_SPEC";
  readonly field: string;
  constructor(field: string, message: string) {
    super(Reason.InvalidSpec, `spec.${field}: ${message}`);
    this.field = field;
  }
}

/** Something this object needs is not Ready yet; re-queued by the reference index when it is. */
export class DependencyNotReadyError extends ReconcileError {
  override name = "DependencyNotReadyError";
  override readonly code = "DEPENDENCY_NOT_READY";
  /** Safety net in case the dependency never emits an event (e.g. it lives outside the cluster). */
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs = 60_000) {
    super(Reason.DependencyNotReady, message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** Deletion must wait for dependents; re-queued when they disappear. */
export class DeletionBlockedError extends ReconcileError {
  override name = "DeletionBlockedError";
  override readonly code = "DELETION_BLOCKED";
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs = 60_000) {
    super(Reason.DeletionBlocked, message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** The external object is in a state that must settle first (e.g. a volume in use); not an error. */
export class WaitError extends ReconcileError {
  override name = "WaitError";
  override readonly code = "WAIT";
  readonly retryAfterMs: number;
  constructor(reason: Reason, message: string, retryAfterMs = 5_000) {
    super(reason, message);
    this.retryAfterMs = retryAfterMs;
  }
}

export function terminal(reason: Reason, message: string, cause?: unknown): TerminalError {
  return new TerminalError(reason, message, { cause });
}

export function isTerminal(error: unknown): error is TerminalError {
  return error instanceof TerminalError;
}
