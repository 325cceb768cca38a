import { describe, expect, it } from "vitest";
import { credentialsRefused, secretProblem } from "./account-use.ts";
import type { Condition } from "./conditions.ts";
import { conditionsFor, type Outcome, outcomeEvent, outcomeOf } from "./outcome.ts";
import {
  DeletionBlockedError,
  DependencyNotReadyError,
  InvalidSpecError,
  Reason,
  TerminalError,
  WaitError,
} from "./result.ts";

const NOW = new Date("2026-01-01T00:00:00Z");

function cond(type: string, status: "True" | "False", reason: string, message = ""): Condition {
  return { type, status, reason, message, lastTransitionTime: NOW.toISOString(), observedGeneration: 1 };
}

/** The four conditions as `Type=Status reason`. */
function summary(conditions: Condition[]): string[] {
  return conditions.map((c) => `${c.type}=${c.status} ${c.reason}`);
}

describe("outcomeOf: which outcome each error is", () => {
  const apiTerminal = new Error("POST /api/deployments -> 422 name: already exists");
  const cases: { reason: string; error: unknown; want: Partial<Outcome> }[] = [
    {
      reason: "an invalid spec stalls",
      error: new InvalidSpecError("cidrBlock", "must be a CIDR"),
      want: { type: "terminal", reason: Reason.InvalidSpec },
    },
    {
      reason: "a terminal error stalls with its reason",
      error: new TerminalError(Reason.AmbiguousCreate, "2 match"),
      want: { type: "terminal", reason: Reason.AmbiguousCreate },
    },
    {
      reason: "a dependency not Ready waits",
      error: new DependencyNotReadyError("waiting for x"),
      want: { type: "waiting", reason: Reason.DependencyNotReady },
    },
    {
      reason: "a deletion held by dependents waits",
      error: new DeletionBlockedError("still used"),
      want: { type: "waiting", reason: Reason.DeletionBlocked },
    },
    {
      reason: "a missing Secret waits (Synced=False): the Account cannot authenticate",
      error: secretProblem(Reason.SecretNotFound, "Secret s not found"),
      want: { type: "waiting", reason: Reason.SecretNotFound, requeueAfterMs: 30_000 },
    },
    {
      reason: "refused credentials wait too",
      error: credentialsRefused("refused"),
      want: { type: "waiting", reason: Reason.CredentialsInvalid },
    },
    {
      reason: "a state settling in the service progresses",
      error: new WaitError(Reason.Creating, "pending", 2_000),
      want: { type: "progressing", reason: Reason.Creating, requeueAfterMs: 2_000 },
    },
    {
      reason: "a terminal service error stalls as ApiError",
      error: apiTerminal,
      want: { type: "terminal", reason: Reason.ApiError, message: apiTerminal.message },
    },
    {
      reason: "any other error is retried as ApiError",
      error: new Error("503"),
      want: { type: "error", reason: Reason.ApiError },
    },
  ];
  it.each(cases)("$reason", ({ error, want }) => {
    expect(outcomeOf(error, (e) => e === apiTerminal)).toMatchObject(want);
  });
});

describe("conditionsFor: the four conditions of each outcome", () => {
  const readyBefore = [cond("Ready", "True", Reason.Available)];
  const cases: { reason: string; outcome: Outcome; before?: Condition[]; want: string[] }[] = [
    {
      reason: "ready: current",
      outcome: { type: "ready", reason: Reason.Available, message: "" },
      want: [
        "Ready=True Available",
        "Synced=True ReconcileSuccess",
        "Reconciling=False Idle",
        "Stalled=False Idle",
      ],
    },
    {
      reason: "ready with ignored fields: still Ready, the reason says so",
      outcome: { type: "ready", reason: Reason.FieldsIgnored, message: "spec.inputs: ..." },
      want: [
        "Ready=True FieldsIgnored",
        "Synced=True ReconcileSuccess",
        "Reconciling=False Idle",
        "Stalled=False Idle",
      ],
    },
    {
      reason: "progressing: in progress, nothing failed",
      outcome: { type: "progressing", reason: Reason.Creating, message: "m", requeueAfterMs: 1 },
      want: [
        "Ready=False Creating",
        "Synced=True ReconcileSuccess",
        "Reconciling=True Creating",
        "Stalled=False Idle",
      ],
    },
    {
      reason: "waiting: in progress, not synced, with the reason",
      outcome: { type: "waiting", reason: Reason.SecretNotFound, message: "m", requeueAfterMs: 1 },
      want: [
        "Ready=False SecretNotFound",
        "Synced=False SecretNotFound",
        "Reconciling=True SecretNotFound",
        "Stalled=False Idle",
      ],
    },
    {
      reason: "terminal: stalled; Reconciling is Idle, the reason is on Stalled",
      outcome: { type: "terminal", reason: Reason.ApiError, message: "422" },
      want: [
        "Ready=False ApiError",
        "Synced=False ApiError",
        "Reconciling=False Idle",
        "Stalled=True ApiError",
      ],
    },
    {
      reason: "terminal InvalidSpec: Reconciling Idle too",
      outcome: { type: "terminal", reason: Reason.InvalidSpec, message: "spec.x" },
      want: [
        "Ready=False InvalidSpec",
        "Synced=False InvalidSpec",
        "Reconciling=False Idle",
        "Stalled=True InvalidSpec",
      ],
    },
    {
      reason: "paused: Synced says it; Reconciling Idle; Ready untouched",
      outcome: { type: "paused" },
      before: readyBefore,
      want: ["Ready=True Available", "Synced=False Paused", "Reconciling=False Idle", "Stalled=False Idle"],
    },
    {
      reason: "error on a new object: Ready False ApiError, retrying",
      outcome: { type: "error", reason: Reason.ApiError, message: "503" },
      want: [
        "Ready=False ApiError",
        "Synced=False ReconcileError",
        "Reconciling=True ReconcileError",
        "Stalled=False Idle",
      ],
    },
    {
      reason: "error on a Ready object: Ready keeps its value",
      outcome: { type: "error", reason: Reason.ApiError, message: "503" },
      before: readyBefore,
      want: [
        "Ready=True Available",
        "Synced=False ReconcileError",
        "Reconciling=True ReconcileError",
        "Stalled=False Idle",
      ],
    },
  ];
  it.each(cases)("$reason", ({ outcome, before, want }) => {
    expect(summary(conditionsFor(outcome, before ?? [], 1, NOW))).toEqual(want);
  });
});

describe("outcomeEvent: one event per change of state", () => {
  const waiting: Outcome = {
    type: "waiting",
    reason: Reason.SecretNotFound,
    message: "Secret s not found",
    requeueAfterMs: 1,
  };
  const stalled: Outcome = { type: "terminal", reason: Reason.ApiError, message: "422" };
  const ignored: Outcome = { type: "ready", reason: Reason.FieldsIgnored, message: "spec.inputs: X" };
  const cases: { reason: string; outcome: Outcome; before?: Condition[]; want: string | undefined }[] = [
    { reason: "a new wait: its reason", outcome: waiting, want: "SecretNotFound: Secret s not found" },
    {
      reason: "the same wait again: none",
      outcome: waiting,
      before: [cond("Ready", "False", Reason.SecretNotFound, "Secret s not found")],
      want: undefined,
    },
    {
      reason: "a wait with another reason, same words: a new state",
      outcome: waiting,
      before: [cond("Ready", "False", Reason.SecretKeyMissing, "Secret s not found")],
      want: "SecretNotFound: Secret s not found",
    },
    { reason: "a new stall: Stalled", outcome: stalled, want: "Stalled: 422" },
    {
      reason: "an invalid spec: InvalidSpec",
      outcome: { type: "terminal", reason: Reason.InvalidSpec, message: "spec.x" },
      want: "InvalidSpec: spec.x",
    },
    {
      reason: "the same stall again: none",
      outcome: stalled,
      before: [cond("Stalled", "True", Reason.ApiError, "422")],
      want: undefined,
    },
    {
      reason: "a failed attempt: ReconcileError (repeats counted by the recorder)",
      outcome: { type: "error", reason: Reason.ApiError, message: "503" },
      want: "ReconcileError: 503",
    },
    { reason: "ignored fields, new: FieldsIgnored", outcome: ignored, want: "FieldsIgnored: spec.inputs: X" },
    {
      reason: "ignored fields, unchanged: none",
      outcome: ignored,
      before: [cond("Ready", "True", Reason.FieldsIgnored, "spec.inputs: X")],
      want: undefined,
    },
    {
      reason: "plainly ready: none (the phases say what they did)",
      outcome: { type: "ready", reason: Reason.Available, message: "" },
      want: undefined,
    },
    {
      reason: "progressing: none",
      outcome: { type: "progressing", reason: Reason.Updating, message: "m", requeueAfterMs: 1 },
      want: undefined,
    },
    { reason: "paused: none", outcome: { type: "paused" }, want: undefined },
  ];
  it.each(cases)("$reason", ({ outcome, before, want }) => {
    const event = outcomeEvent(outcome, before);
    expect(event && `${event.reason}: ${event.message}`).toBe(want);
  });
});

describe("outcomeEvent: a deletion someone has to act on is a Warning", () => {
  it.each([
    { needsAction: false, type: undefined },
    { needsAction: true, type: "Warning" },
  ])("DeletionBlocked, needsAction $needsAction: type $type", ({ needsAction, type }) => {
    const outcome = outcomeOf(new DeletionBlockedError("still used by ...", 1_000, needsAction), () => false);
    expect(outcome).toMatchObject({ type: "waiting", reason: Reason.DeletionBlocked });
    expect(outcomeEvent(outcome, [])).toEqual({
      reason: Reason.DeletionBlocked,
      message: "still used by ...",
      ...(type ? { type } : {}),
    });
  });
});
