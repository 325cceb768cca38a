import { type Condition, type ConditionInput, getCondition, setCondition } from "./conditions.ts";
import {
  DeletionBlockedError,
  DependencyNotReadyError,
  Reason,
  ReconcileError,
  TerminalError,
  WaitError,
} from "./result.ts";

/**
 * The one place where reconcile results and errors become conditions and requeues
 * (controller-runtime's contract, Crossplane's condition set).
 */
export type Outcome =
  | { type: "ready"; reason: string; message: string }
  | { type: "progressing"; reason: string; message: string; requeueAfterMs: number }
  | { type: "paused" }
  | { type: "terminal"; reason: string; message: string }
  | { type: "waiting"; reason: string; message: string; requeueAfterMs: number }
  | { type: "error"; reason: string; message: string };

/** Maps a thrown error to an outcome; `classify` recognizes the service client's terminal errors. */
export function outcomeOf(error: unknown, isTerminalApiError: (e: unknown) => boolean): Outcome {
  if (error instanceof TerminalError)
    return { type: "terminal", reason: error.reason, message: error.message };
  if (error instanceof DependencyNotReadyError || error instanceof DeletionBlockedError) {
    return {
      type: "waiting",
      reason: error.reason,
      message: error.message,
      requeueAfterMs: error.retryAfterMs,
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
  if (error instanceof ReconcileError) return { type: "error", reason: error.reason, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  if (isTerminalApiError(error)) return { type: "terminal", reason: Reason.ApiError, message };
  return { type: "error", reason: Reason.ApiError, message };
}

/** Conditions after an outcome; Ready keeps its value on a transient error (Crossplane does the same). */
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
      c = set(
        c,
        f("Synced", Reason.Paused, "reconciliation is paused by the cloud.svc.io/paused annotation"),
      );
      c = set(c, f("Reconciling", Reason.Paused));
      c = set(c, f("Stalled", Reason.Idle));
      return c;
    case "terminal":
      c = set(c, f("Ready", outcome.reason, outcome.message));
      c = set(c, f("Synced", outcome.reason, outcome.message));
      c = set(c, f("Reconciling", outcome.reason));
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
