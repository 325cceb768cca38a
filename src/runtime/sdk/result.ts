/**
 * The reconcile contract, controller-runtime style: a reconcile either returns a
 * Result (maybe with RequeueAfter) or throws one of the typed errors below. The
 * generic reconciler maps each of them to conditions, events and requeues in one
 * place (`outcome.ts`); kind modules only throw them.
 */

/** Condition reasons (the `reason` field of Ready/Synced/Reconciling/Stalled). */
export const Reason = {
  Available: "Available",
  /** Ready, but the service ignores part of the spec (ManagedKind.warnings); the message names it. */
  FieldsIgnored: "FieldsIgnored",
  /** Ready, and the service object holds objects no custom resource manages (ManagedKind.contents). */
  UnmanagedContents: "UnmanagedContents",
  Creating: "Creating",
  Updating: "Updating",
  Deleting: "Deleting",
  Paused: "Paused",
  DependencyNotReady: "DependencyNotReady",
  DeletionBlocked: "DeletionBlocked",
  InvalidSpec: "InvalidSpec",
  ApiError: "ApiError",
  AmbiguousCreate: "AmbiguousCreate",
  /** Another custom resource manages the href this one names: it never writes or deletes it. */
  AlreadyManaged: "AlreadyManaged",
  /** An href (annotation, spec field) is not in canonical form, or names an object whose self link is another. */
  InvalidHref: "InvalidHref",
  ImmutableField: "ImmutableField",
  /** The spec's references lead back to the object itself: none of them can become Ready. */
  ReferenceCycle: "ReferenceCycle",
  NotFound: "NotFound",
  ReconcileSuccess: "ReconcileSuccess",
  ReconcileError: "ReconcileError",
  Idle: "Idle",
  CredentialsInvalid: "CredentialsInvalid",
  SecretNotFound: "SecretNotFound",
  SecretKeyMissing: "SecretKeyMissing",
  /** A ConfigMap the spec reads a key of (e.g. spec.contentFrom.configMapKeyRef) does not exist. */
  ConfigMapNotFound: "ConfigMapNotFound",
  ConfigMapKeyMissing: "ConfigMapKeyMissing",
  /** An Account's endpoint (or a redirect of it) is outside the operator's --allowed-endpoints. */
  EndpointNotAllowed: "EndpointNotAllowed",
} as const;
export type Reason = (typeof Reason)[keyof typeof Reason];

/**
 * The reasons each kind of outcome carries (see outcome.ts): the error classes below take only
 * these, so the conditions a reconcile can end with are exactly what these lists and
 * `conditionsFor` make of them (test/deploy/condition-tables.test.ts holds the docs to that).
 */
export const ReadyReasons = [Reason.Available, Reason.FieldsIgnored, Reason.UnmanagedContents] as const;
/** Work under way in the service or a state that settles by itself: Reconciling=True, Synced=True. */
export const ProgressingReasons = [
  Reason.Creating,
  Reason.Updating,
  Reason.Deleting,
  Reason.NotFound,
] as const;
/** Something outside this resource has to change first: Reconciling=True, Synced=False. */
export const WaitingReasons = [
  Reason.DependencyNotReady,
  Reason.DeletionBlocked,
  Reason.SecretNotFound,
  Reason.SecretKeyMissing,
  Reason.ConfigMapNotFound,
  Reason.ConfigMapKeyMissing,
  Reason.CredentialsInvalid,
] as const;
/** Only a spec change helps: Stalled=True. */
export const TerminalReasons = [
  Reason.InvalidSpec,
  Reason.ImmutableField,
  Reason.ReferenceCycle,
  Reason.AmbiguousCreate,
  Reason.AlreadyManaged,
  Reason.InvalidHref,
  Reason.EndpointNotAllowed,
  Reason.ApiError,
] as const;
/** A failed attempt that is retried (Synced=False ReconcileError). */
export const ErrorReasons = [Reason.ApiError] as const;
export type ReadyReason = (typeof ReadyReasons)[number];
export type ProgressingReason = (typeof ProgressingReasons)[number];
export type WaitingReason = (typeof WaitingReasons)[number];
export type TerminalReason = (typeof TerminalReasons)[number];
export type ErrorReason = (typeof ErrorReasons)[number];

/** Kubernetes Event reasons the operator emits, each with its one type (EventTypes). */
export const EventReason = {
  Updated: "Updated",
  Deleted: "Deleted",
  Orphaned: "Orphaned",
  Adopted: "Adopted",
  Recreated: "Recreated",
  DriftCorrected: "DriftCorrected",
  Replaced: "Replaced",
  CreatePendingResolved: "CreatePendingResolved",
  FieldsIgnored: "FieldsIgnored",
  UnmanagedContents: "UnmanagedContents",
  ReconcileError: "ReconcileError",
  InvalidSpec: "InvalidSpec",
  Stalled: "Stalled",
  DependencyNotReady: "DependencyNotReady",
  DeletionBlocked: "DeletionBlocked",
  CredentialsValid: "CredentialsValid",
  CredentialsInvalid: "CredentialsInvalid",
  SecretNotFound: "SecretNotFound",
  SecretKeyMissing: "SecretKeyMissing",
  ConfigMapNotFound: "ConfigMapNotFound",
  ConfigMapKeyMissing: "ConfigMapKeyMissing",
  ResyncIntervalInvalid: "ResyncIntervalInvalid",
} as const;
export type EventReason = (typeof EventReason)[keyof typeof EventReason];

/** Whether an event says all is well (Normal) or someone should look (Warning): one type per reason. */
export const EventTypes = {
  Updated: "Normal",
  Deleted: "Normal",
  Orphaned: "Normal",
  Adopted: "Normal",
  Recreated: "Normal",
  DriftCorrected: "Normal",
  Replaced: "Normal",
  CreatePendingResolved: "Normal",
  FieldsIgnored: "Warning",
  UnmanagedContents: "Warning",
  ReconcileError: "Warning",
  InvalidSpec: "Warning",
  Stalled: "Warning",
  DependencyNotReady: "Normal",
  DeletionBlocked: "Normal",
  CredentialsValid: "Normal",
  CredentialsInvalid: "Warning",
  SecretNotFound: "Warning",
  SecretKeyMissing: "Warning",
  ConfigMapNotFound: "Warning",
  ConfigMapKeyMissing: "Warning",
  ResyncIntervalInvalid: "Warning",
} as const satisfies Record<EventReason, "Normal" | "Warning">;

/** An Event's type: Normal (all is well) or Warning (someone should look). */
export type EventType = "Normal" | "Warning";

export interface Result {
  /** Reconcile the object again after this many milliseconds (0 or absent: not before the next event). */
  requeueAfterMs?: number;
}

/**
 * Base of every typed reconcile error: a stable `code`, a condition reason and `cause` chaining.
 * Abstract: each subclass is one kind of outcome, and takes only that outcome's reasons.
 */
export abstract class ReconcileError extends Error {
  override name = "ReconcileError";
  readonly code: string = "RECONCILE_ERROR";
  readonly reason: Reason;
  /**
   * What the operator's log line says beside the message, never the status or an Event: facts
   * for the cluster's admins that the resource's own namespace may not see (another's owner).
   */
  logged?: Record<string, string>;
  constructor(reason: Reason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Do not retry: only a spec change can help. Maps to Stalled=True. */
export class TerminalError extends ReconcileError {
  override name = "TerminalError";
  override readonly code: string = "TERMINAL";
  declare readonly reason: TerminalReason;
  constructor(reason: TerminalReason, message: string, options?: { cause?: unknown }) {
    super(reason, message, options);
  }
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

/**
 * Something outside this resource has to change first (a reference, a dependent, the Account's
 * Secret or credentials): not an error of this reconcile, nor one only a spec change can fix.
 * Synced=False and Reconciling=True with the reason; looked at again after `retryAfterMs`.
 */
export class BlockedError extends ReconcileError {
  override name = "BlockedError";
  override readonly code: string = "BLOCKED";
  declare readonly reason: WaitingReason;
  /** Safety net in case what it waits for never emits an event (e.g. it lives outside the cluster). */
  readonly retryAfterMs: number;
  /**
   * It waits on something nobody is changing, so it lasts until someone acts: its Event is a
   * Warning whatever its reason's type (`kubectl get events --field-selector type=Warning` shows it).
   */
  readonly needsAction: boolean;
  constructor(reason: WaitingReason, message: string, retryAfterMs = 60_000, needsAction = false) {
    super(reason, message);
    this.retryAfterMs = retryAfterMs;
    this.needsAction = needsAction;
  }
}

/** Something this object needs is not Ready yet; re-queued by the reference index when it is. */
export class DependencyNotReadyError extends BlockedError {
  override name = "DependencyNotReadyError";
  override readonly code = "DEPENDENCY_NOT_READY";
  constructor(message: string, retryAfterMs = 60_000) {
    super(Reason.DependencyNotReady, message, retryAfterMs);
  }
}

/**
 * Deletion must wait for dependents; re-queued when they disappear. `needsAction`: some of them
 * are not being deleted (someone has to delete them or change their references).
 */
export class DeletionBlockedError extends BlockedError {
  override name = "DeletionBlockedError";
  override readonly code = "DELETION_BLOCKED";
  constructor(message: string, retryAfterMs = 60_000, needsAction = false) {
    super(Reason.DeletionBlocked, message, retryAfterMs, needsAction);
  }
}

/** The external object is in a state that must settle first (e.g. a volume in use); not an error. */
export class WaitError extends ReconcileError {
  override name = "WaitError";
  override readonly code = "WAIT";
  declare readonly reason: ProgressingReason;
  readonly retryAfterMs: number;
  constructor(reason: ProgressingReason, message: string, retryAfterMs = 5_000) {
    super(reason, message);
    this.retryAfterMs = retryAfterMs;
  }
}

export function terminal(reason: TerminalReason, message: string, cause?: unknown): TerminalError {
  return new TerminalError(reason, message, { cause });
}

/**
 * InvalidHref: `where` (a spec field, an annotation) names an href in another spelling than the
 * service's own, or an object whose self link is another. Nothing is written for it.
 */
export function invalidHref(where: string, problem: string): TerminalError {
  return terminal(
    Reason.InvalidHref,
    `${where}: ${problem}; write the href exactly as the service shows it (its self link): no other spelling is taken`,
  );
}

export function isTerminal(error: unknown): error is TerminalError {
  return error instanceof TerminalError;
}

/** How long a resource waits for its references, unrecorded, before its wait is recorded (resolve.ts). */
export const DEPENDENCY_RETRY_MS = 60_000;
