import { type Condition, type ConditionInput, getCondition, setCondition } from "./conditions.ts";
import {
  BlockedError,
  type ErrorReason,
  EventReason,
  type EventType,
  type ProgressingReason,
  type ReadyReason,
  Reason,
  TerminalError,
  type TerminalReason,
  WaitError,
  type WaitingReason,
} from "./result.ts";

/**
 * The one place where reconcile results and errors become conditions, events and requeues
 * (controller-runtime's contract, Crossplane's condition set). Each outcome carries only its
 * own reasons (result.ts), so the conditions and events below are all there can be.
 */
export type Outcome =
  | { type: "ready"; reason: ReadyReason; message: string; requeueAfterMs?: number }
  | { type: "progressing"; reason: ProgressingReason; message: string; requeueAfterMs: number }
  | { type: "paused" }
  | { type: "terminal"; reason: TerminalReason; message: string }
  | {
      type: "waiting";
      reason: WaitingReason;
      message: string;
      requeueAfterMs: number;
      /** It waits on something nobody is changing (BlockedError.needsAction): a Warning event. */
      needsAction?: true;
    }
  | { type: "error"; reason: ErrorReason; message: string };

/** The Synced message of a paused object. */
export const PAUSED_MESSAGE = "reconciliation is paused by the cloud.svc.io/paused annotation";

/** Maps a thrown error to an outcome; `isTerminalApiError` recognizes the service client's terminal errors. */
export function outcomeOf(error: unknown, isTerminalApiError: (e: unknown) => boolean): Outcome {
  if (error instanceof TerminalError)
    return { type: "terminal", reason: error.reason, message: error.message };
  if (error instanceof BlockedError) {
    return {
      type: "waiting",
      reason: error.reason,
      message: error.message,
      requeueAfterMs: error.retryAfterMs,
      ...(error.needsAction ? { needsAction: true as const } : {}),
    };
  }
  if (error instanceof WaitError) {
    return {
      type: "progressing",
      reason: error.reason,
      message: error.message,
      requeueAfterMs: error.retryAfterMs,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isTerminalApiError(error)) return { type: "terminal", reason: Reason.ApiError, message };
  return { type: "error", reason: Reason.ApiError, message };
}

/**
 * Conditions after an outcome. Ready keeps its value on a transient error (Crossplane does the
 * same). Reconciling and Stalled are kstatus's abnormal-true conditions: when False they carry
 * `Idle` whatever the outcome, and the reason of what is going on is on the True one (Stalled
 * for a terminal outcome, Synced for a paused one).
 */
export function conditionsFor(
  outcome: Outcome,
  current: readonly Condition[],
  generation: number | undefined,
  now: Date,
): Condition[] {
  const set = (list: Condition[], c: ConditionInput) => setCondition(list, c, generation, now);
  let c = [...current];
  const f = (type: string, reason: string, message = ""): ConditionInput => ({
    type,
    status: "False",
    reason,
    message,
  });
  const t = (type: string, reason: string, message = ""): ConditionInput => ({
    type,
    status: "True",
    reason,
    message,
  });
  switch (outcome.type) {
    case "ready":
      c = set(c, t("Ready", outcome.reason, outcome.message));
      c = set(c, t("Synced", Reason.ReconcileSuccess));
      c = set(c, f("Reconciling", Reason.Idle));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    case "progressing":
      c = set(c, f("Ready", outcome.reason, outcome.message));
      c = set(c, t("Synced", Reason.ReconcileSuccess));
      c = set(c, t("Reconciling", outcome.reason, outcome.message));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    case "paused":
      c = set(c, f("Synced", Reason.Paused, PAUSED_MESSAGE));
      c = set(c, f("Reconciling", Reason.Idle));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    case "terminal":
      c = set(c, f("Ready", outcome.reason, outcome.message));
      c = set(c, f("Synced", outcome.reason, outcome.message));
      c = set(c, f("Reconciling", Reason.Idle));
      c = set(c, t("Stalled", outcome.reason, outcome.message));
      return c;
    case "waiting":
      c = set(c, f("Ready", outcome.reason, outcome.message));
      c = set(c, f("Synced", outcome.reason, outcome.message));
      c = set(c, t("Reconciling", outcome.reason, outcome.message));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    case "error": {
      const ready = getCondition(c, "Ready");
      if (ready?.status !== "True") c = set(c, f("Ready", outcome.reason, outcome.message));
      c = set(c, f("Synced", Reason.ReconcileError, outcome.message));
      c = set(c, t("Reconciling", Reason.ReconcileError, `retrying: ${outcome.message}`));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    }
  }
}

/** An event to emit: its type comes with the reason (EventTypes), unless `type` says otherwise. */
export interface OutcomeEvent {
  reason: EventReason;
  message: string;
  /** A wait that needs someone to act is a Warning, whatever its reason's usual type. */
  type?: EventType;
}

/**
 * The event an outcome makes, given the conditions before it: one per change of state (a
 * stall, a wait, a warning that is new or says something new), one per failed attempt (the
 * recorder counts repeats on one Event). Progressing and plain Ready outcomes make none here:
 * the phases emit what they did (Created, Updated, ...).
 */
export function outcomeEvent(
  outcome: Outcome,
  before: readonly Condition[] | undefined,
): OutcomeEvent | undefined {
  const ready = getCondition(before, "Ready");
  const message = "message" in outcome ? outcome.message : "";
  const changed = (status: string, reason: string) =>
    ready?.status !== status || ready.reason !== reason || ready.message !== message;
  switch (outcome.type) {
    case "terminal": {
      const stalled = getCondition(before, "Stalled");
      if (stalled?.status === "True" && stalled.message === message) return undefined;
      return {
        reason: outcome.reason === Reason.InvalidSpec ? EventReason.InvalidSpec : EventReason.Stalled,
        message,
      };
    }
    case "error":
      return { reason: EventReason.ReconcileError, message };
    case "waiting":
      if (!changed("False", outcome.reason)) return undefined;
      return outcome.needsAction
        ? { reason: outcome.reason, message, type: "Warning" }
        : { reason: outcome.reason, message };
    case "ready":
      if (outcome.reason === Reason.FieldsIgnored && changed("True", outcome.reason))
        return { reason: EventReason.FieldsIgnored, message };
      if (outcome.reason === Reason.UnmanagedContents && changed("True", outcome.reason))
        return { reason: EventReason.UnmanagedContents, message };
      return undefined;
    default:
      return undefined;
  }
}
