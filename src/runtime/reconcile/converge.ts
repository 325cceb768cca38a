import { changedFields, shownValue } from "../audit/index.ts";
import type { FieldDiff, LastDrift, Outcome } from "../sdk/index.ts";
import {
  Annotation,
  DeletionBlockedError,
  deepEqual,
  EventReason,
  isTrue,
  Reason,
  WaitError,
  withoutNulls,
} from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { readyToCreate } from "./create.ts";
import { decideChange, writeOnlyChanges } from "./decide.ts";
import type { End, Existing } from "./state.ts";

/** Phase 6: whether the object matches the spec: update what differs, replace or refuse what cannot. */
export async function converge(run: Run, existing: Existing): Promise<Existing | End> {
  const state = await finishReplacement(run, existing);
  if (state.observeOnly) return state;
  const change = decideChange(run.kind, [
    ...run.kind.diff(state.desired, state.observed),
    ...writeOnlyDiff(run, state.desired),
  ]);
  switch (change.type) {
    case "none":
      return state;
    case "update":
      return { ...state, observed: await update(run, state, change.diff) };
    case "immutable":
      throw change.error;
    case "replace":
      // The successor must be creatable before the old object goes (its links, the kind's checks).
      await readyToCreate(run, state);
      return {
        end:
          change.how === "deleteBeforeCreate"
            ? await deleteBeforeCreate(run, state, change.locked)
            : await startReplacement(run, state.href, change.locked.map((d) => d.field).join(", ")),
      };
  }
}

/** Applies the differing fields; what the service shows afterwards, or a wait while it still differs. */
async function update(run: Run, state: Existing, diff: FieldDiff[]): Promise<unknown> {
  const { client, href, desired } = state;
  // Drift: the spec was applied, and the service shows something else than status recorded. Not
  // a spec-side change with the same generation (an after-create association whose target just
  // became usable, a referenced object's new href): those are updates.
  const drift =
    run.obj.status?.observedGeneration === run.meta.generation &&
    isTrue(run.obj.status?.conditions, "Ready") &&
    !run.sourcesChanged &&
    !deepEqual(
      withoutNulls(run.kind.atProvider(state.observed, run.obj.status?.applied)),
      run.obj.status?.atProvider ?? {},
    );
  const fields = diff.map((d) => d.field);
  await run.kind.beforeWrite?.(client, desired, fields);
  await run.kind.update(client, href, desired, state.observed, diff);
  run.around.observations?.wrote(run.key);
  run.status.applied = run.writeOnlyValues(desired);
  // The update right after this run's create (a gateway attached, a subnet's route table) is part
  // of making the object: no Event of its own.
  if (run.unrecordedHref === undefined)
    run.event(
      drift ? EventReason.DriftCorrected : EventReason.Updated,
      `${drift ? "put back" : "updated"} ${fields.join(", ")}`,
    );
  run.audited(drift ? "driftCorrected" : "updated", href, changedFields(diff), desired);
  if (drift) run.status.lastDrift = lastDrift(run, diff, desired);
  const observed = (await run.observe(state, href)) ?? state.observed;
  const remaining = run.kind.diff(desired, observed);
  if (remaining.length > 0) {
    run.status.atProvider = withoutNulls(run.kind.atProvider(observed, run.status.applied));
    throw new WaitError(
      Reason.Updating,
      `waiting for the service to apply ${remaining.map((d) => d.field).join(", ")}`,
      5_000,
    );
  }
  return observed;
}

/** deleteBeforeCreate: the old object goes first; the next reconcile creates the new one. */
async function deleteBeforeCreate(run: Run, state: Existing, locked: FieldDiff[]): Promise<Outcome> {
  const { href } = state;
  const fields = locked.map((d) => d.field).join(", ");
  await run.deleteInService(state.client, href, state.observed, {
    action: "replaced",
    fields: changedFields(locked),
    desired: state.desired,
    note: "deleted to be created again: these fields cannot be updated in place",
  });
  await run.patchMetadata({ annotations: { [Annotation.href]: null } }, false);
  run.forgetExternal();
  run.event(EventReason.Replaced, `deleted ${href} to replace it: ${fields} cannot be updated in place`);
  return {
    type: "progressing",
    reason: Reason.Updating,
    message: `replacing: ${fields} changed`,
    requeueAfterMs: 1,
  };
}

/**
 * createBeforeDelete: forget the old object but remember it in `status.replaces` (written before
 * anything else, so a crash cannot leak it; in status, which only the operator writes, so that no
 * user can name an object for it to delete); the next reconcile creates the new one through the
 * normal no-duplicate create path, and `finishReplacement` deletes the old one after that.
 */
async function startReplacement(run: Run, href: string, fields: string): Promise<Outcome> {
  await run.patchStatus({ replaces: href });
  await run.patchMetadata({ annotations: { [Annotation.href]: null } }, true);
  run.forgetExternal();
  run.status.replaces = href;
  run.event(
    EventReason.Replaced,
    `replacing ${href}: ${fields} cannot be updated in place; creating the new object before deleting it`,
  );
  return {
    type: "progressing",
    reason: Reason.Updating,
    message: `replacing ${href}: ${fields} changed`,
    requeueAfterMs: 1,
  };
}

/**
 * Deletes the object a replacement superseded, once its successor exists and is usable. While the
 * service refuses (what uses the old object has not moved to the new one yet: routes in a replaced
 * route table), the successor is Ready, so that what references it can move over, and the old
 * one is tried again later (status.replaces keeps it). One another resource manages is left.
 */
async function finishReplacement(run: Run, state: Existing): Promise<Existing> {
  const { client, href, desired, observed } = state;
  const old = run.status.replaces;
  if (old === undefined) return state;
  if (old !== href) {
    if (run.kind.notReady?.(observed)) return state;
    const retained = run.around.owners.retainReason(run.kind.kind, run.obj, old);
    const current = retained ? undefined : await run.kind.observe(client, old, desired);
    if (current !== undefined) {
      try {
        await run.deleteInService(client, old, current, { action: "replaced", note: `replaced by ${href}` });
      } catch (error) {
        if (!(error instanceof DeletionBlockedError)) throw error;
        const message = `replaced ${old} with ${href}; waiting to delete ${old}: ${error.message}`;
        return { ...state, lingering: { message, retryAfterMs: error.retryAfterMs } };
      }
    }
    run.event(
      EventReason.Replaced,
      retained
        ? `replaced ${old} with ${href}; left ${old}: ${retained}`
        : `replaced ${old} with ${href}; deleted ${old}`,
    );
  }
  run.status.replaces = undefined;
  return state;
}

/** Write-only fields whose desired value differs from the one last applied (a first record is kept). */
function writeOnlyDiff(run: Run, desired: unknown): FieldDiff[] {
  const values = run.writeOnlyValues(desired);
  if (!values) return [];
  const changes = writeOnlyChanges(values, run.status.applied);
  if (changes === undefined) run.status.applied = values;
  return changes ?? [];
}

/**
 * What a drift correction found: when, and each field with the service's value (as the audit
 * trail shows values: JSON, secrets masked, long values cut), so drift is visible on the object.
 */
function lastDrift(run: Run, diff: readonly FieldDiff[], desired: unknown): LastDrift {
  const writeOnly = Object.keys(run.kind.writeOnly?.(desired) ?? {});
  return {
    time: new Date(run.now()).toISOString(),
    fields: diff.map((d) => ({ field: d.field, service: shownValue([d.field], d.observed, writeOnly) })),
  };
}
