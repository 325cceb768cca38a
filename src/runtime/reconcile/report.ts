import { ConflictError, GoneError, mergePatch } from "../client/index.ts";
import {
  Annotation,
  conditionsFor,
  DEPENDENCY_RETRY_MS,
  type Outcome,
  outcomeEvent,
  outcomeOf,
  Reason,
  type ReconcileError,
  WaitError,
  withoutNulls,
} from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { recordUnrecordedHref } from "./create.ts";
import type { ReconcileOutcome } from "./deps.ts";
import { logRetriedFailure } from "./failure-log.ts";
import { AccountPendingError, AwaitingReferencesError, type Existing } from "./state.ts";

/**
 * Phase 7: whether the external object is usable (Ready), from what the service shows of it; and
 * what Ready then says: what of the spec the service ignores (the kind's warnings: reason
 * FieldsIgnored), what the object holds that no custom resource manages (its contents: reason
 * UnmanagedContents), each with a Warning event when it changes; after-create associations not
 * applied yet, and a replaced object the service does not let go of yet.
 */
export function report(run: Run, state: Existing): Outcome {
  const { observed, observeOnly, desired, associations, lingering } = state;
  run.status.atProvider = withoutNulls(run.kind.atProvider(observed, run.status.applied));
  if (observeOnly) {
    return {
      type: "ready",
      reason: Reason.Available,
      message: "observing the service object (ObserveOnly)",
    };
  }
  const notReady = run.kind.notReady?.(observed);
  if (notReady) throw new WaitError(Reason.Creating, notReady, notReadyPollMs(run));
  run.memory.notReadySince.delete(run.key);
  const warnings = run.kind.warnings?.(desired, observed) ?? [];
  const unmanaged = unmanagedContents(run, observed);
  // Ready without its after-create associations: what references it may go on (a route table
  // naming this network), and the target turning Ready wakes it to apply them.
  const notes = [...warnings, ...unmanaged];
  if (associations.length > 0)
    notes.push(
      `not applied yet: ${associations.join("; ")}; applied once ${associations.length === 1 ? "it is" : "they are"} Ready`,
    );
  if (lingering) notes.push(lingering.message);
  const reason =
    warnings.length > 0
      ? Reason.FieldsIgnored
      : unmanaged.length > 0
        ? Reason.UnmanagedContents
        : Reason.Available;
  const again = lingering ? { requeueAfterMs: lingering.retryAfterMs } : {};
  return { type: "ready", reason, message: notes.join("; "), ...again };
}

/** Contents listed in one message: a table of hundreds of routes must not make a condition of megabytes. */
const LISTED_CONTENTS = 10;

/** The kind's contents (ManagedKind.contents) that no custom resource names, as one message (or none). */
function unmanagedContents(run: Run, observed: unknown): string[] {
  const contents = run.kind.contents?.(observed) ?? [];
  const foreign = contents.filter((c) => !run.around.owners.heldElsewhere(run.kind.kind, run.obj, c.href));
  if (foreign.length === 0) return [];
  const shown = foreign.slice(0, LISTED_CONTENTS).map((c) => `${c.label} (${c.href})`);
  const more = foreign.length > LISTED_CONTENTS ? ` and ${foreign.length - LISTED_CONTENTS} more` : "";
  return [
    `the service shows ${foreign.length} object${foreign.length === 1 ? "" : "s"} in it that no custom resource ` +
      `manages, left as ${foreign.length === 1 ? "it is" : "they are"}: ${shown.join(", ")}${more}`,
  ];
}

/**
 * How long to wait before looking again at an object the service shows as not ready: at the
 * next 250 ms step of the clock (at least 125 ms on) for its first 2 s, then as long as it has
 * been so, up to 30 s (2, 4, 8, ... s). A short pending state (a subnet's second) is seen over
 * within a quarter of a second, not up to a second late with every dependent waiting, and a long
 * one costs few calls. The looks fall on one grid of the clock: objects that turned pending about
 * together are looked at together, through one batched index read (BatchedReads, read soon).
 */
function notReadyPollMs(run: Run): number {
  const now = run.now();
  const since = run.memory.notReadySince.get(run.key) ?? now;
  run.memory.notReadySince.set(run.key, since);
  const pendingMs = now - since;
  // The next grid point at least half a step away: a look that ended just after a grid point
  // takes the next one, not the one after (which would leave it up to two steps late).
  const wait = pendingMs < STEADY_LOOKS_MS ? POLL_GRID_MS / 2 : Math.min(30_000, pendingMs);
  return Math.ceil((now + wait) / POLL_GRID_MS) * POLL_GRID_MS - now;
}

const POLL_GRID_MS = 250;
/** For this long an object stays not ready, it is looked at every POLL_GRID_MS; then less and less often. */
const STEADY_LOOKS_MS = 2_000;

/** What a phase's error records: its outcome; nothing for a conflict, a pending Account or a gone object. */
export async function recordFailure(run: Run, error: unknown): Promise<ReconcileOutcome> {
  if (error instanceof ConflictError) {
    run.log.debug("conflict writing metadata; retrying with the latest object");
    await recordUnrecordedHref(run);
    return { retry: true, outcome: "error" };
  }
  if (error instanceof AwaitingReferencesError) {
    run.log.debug("waiting for its references to become Ready (woken by them)");
    return { requeueAfterMs: run.policy.dependencyRetryMs ?? DEPENDENCY_RETRY_MS, outcome: "waiting" };
  }
  if (error instanceof AccountPendingError) {
    // Not a state worth recording: after an operator restart every resource would flip to
    // Ready=False for the moment the Account takes to verify. The Account wakes it.
    run.log.debug("waiting for the Account's first credentials check");
    return { requeueAfterMs: run.policy.dependencyRetryMs, outcome: "waiting" };
  }
  if (error instanceof GoneError) return {};
  const outcome = outcomeOf(error, run.policy.isTerminalApiError);
  if (outcome.type === "error") {
    logRetriedFailure(run, error);
  } else {
    run.log.info(
      { reason: "reason" in outcome ? outcome.reason : undefined, ...(error as ReconcileError).logged },
      outcome.type === "terminal" ? "stalled" : "waiting",
    );
  }
  return record(run, outcome, outcome.type === "error");
}

/** Writes what the reconcile ended with, once: events, a create's href, status and conditions. */
export async function record(run: Run, outcome: Outcome, retry: boolean): Promise<ReconcileOutcome> {
  const requeueAfterMs = "requeueAfterMs" in outcome ? outcome.requeueAfterMs : undefined;
  run.memory.parked.delete(run.key);
  eventsForOutcome(run, outcome);
  // A create's href: the annotation (which clears create-pending), then the status, so that
  // Ready is never seen before the annotation. A failed annotation write does not keep the
  // status from being written; create-pending then still stands (a lookup, not a second create).
  let notRecorded: unknown;
  const href = run.unrecordedHref;
  if (href !== undefined) {
    await run
      .patchUnread({
        metadata: {
          annotations: { [Annotation.href]: href, [Annotation.createPending]: null },
        },
      })
      .catch((error: unknown) => {
        if (!(error instanceof GoneError)) notRecorded = error;
      });
  }
  await writeStatus(run, outcome);
  run.flushEvents();
  if (notRecorded !== undefined) {
    run.log.warn({ err: notRecorded }, "could not write the href annotation; will retry");
    return { retry: true, outcome: outcome.type };
  }
  return { requeueAfterMs, retry, outcome: outcome.type };
}

function eventsForOutcome(run: Run, outcome: Outcome): void {
  const event = outcomeEvent(outcome, run.obj.status?.conditions);
  if (event) run.event(event.reason, event.message, event.type);
}

async function writeStatus(run: Run, outcome: Outcome): Promise<void> {
  const now = new Date(run.now());
  run.status.observedGeneration = run.meta.generation;
  run.status.conditions = conditionsFor(outcome, run.status.conditions ?? [], run.meta.generation, now);
  const patch = mergePatch(run.obj.status ?? {}, run.status);
  if (patch === undefined) return;
  try {
    // The run's last writes: what the apiserver answers is not read (run.obj stays as it was).
    await run.patchUnread({ status: patch as Record<string, unknown> });
  } catch (error) {
    if (error instanceof GoneError) return;
    throw error;
  }
}
