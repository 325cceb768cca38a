import { createdFields } from "../audit/index.ts";
import { mergePatch } from "../client/index.ts";
import { Annotation, EventReason, FINALIZER, Reason, WaitError } from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import type { Desired, Existing, Observed } from "./state.ts";

/** Phase 5: whether to create (nothing was found), without ever making a second object. */
export async function createIfMissing(run: Run, state: Observed): Promise<Existing> {
  if (state.href) return { ...state, href: state.href };
  await readyToCreate(run, state);
  // No duplicates: intent (create-pending) is written before the call and the href right after,
  // so a create whose answer was lost is looked up (observeOrAdopt), never sent again.
  const finalizers = (run.meta.finalizers ?? []).includes(FINALIZER) ? undefined : state.withFinalizer;
  await run.patchMetadata(
    {
      annotations: { [Annotation.createPending]: new Date(run.now()).toISOString() },
      finalizers,
    },
    true,
  );
  // The read after the create joins a batch read once every create in flight with it answered.
  const joined = run.expectRead(state);
  try {
    const href = await sendCreate(run, state);
    created(run, state, href);
    const observed = await run.observe(state, href, joined);
    if (observed === undefined)
      throw new WaitError(Reason.Creating, `created ${href}; waiting for the service to show it`, 2_000);
    return { ...state, href, observed };
  } finally {
    joined();
  }
}

/** The create call: the href it made. A create refused for good clears its intent (nothing was made). */
async function sendCreate(run: Run, { client, desired }: Observed): Promise<string> {
  try {
    return await run.kind.create(client, desired);
  } catch (error) {
    if (run.policy.isOutcomeUnknown(error)) {
      run.log.warn({ err: error }, "create outcome unknown; the next attempt looks the object up first");
    } else if (run.policy.isTerminalApiError(error)) {
      // Refused for good (a 422 such as a duplicate name): nothing was created. Left pending, the
      // next reconcile would look the object up and take the one that holds the name for its own.
      await run.patchMetadata({ annotations: { [Annotation.createPending]: null } }, false);
    }
    throw error;
  }
}

/** What the run keeps of a create until it ends: the href, its record, its audit entry. */
function created(run: Run, { spec, desired, recreate }: Observed, href: string): void {
  run.status.href = href;
  run.status.adopted = undefined;
  run.status.applied = run.writeOnlyValues(desired);
  // The href goes into the annotation and the status this reconcile ends with, whatever its
  // outcome (see record in report.ts): one Kubernetes write fewer per create than a status write
  // of its own. Until then the create-pending annotation makes a crash look the object up, not
  // create it again.
  run.unrecordedHref = href;
  run.rememberOwnHref(href);
  // A create says itself in status (href, Ready's transition) and the audit trail: its Event would
  // be a fourth Kubernetes write per resource. One that re-creates a lost object is news: said.
  if (recreate) run.event(EventReason.Recreated, `re-created ${href}`);
  run.audited(
    "created",
    href,
    createdFields(spec),
    desired,
    recreate ? "the previous object was gone" : undefined,
  );
}

/**
 * Whether the service can take a create of this spec: the objects it links to by href exist, and
 * the kind's own check passes (DependencyNotReady otherwise). Asked before a create, and before a
 * replacement starts, so an object is never deleted for a successor that cannot be created.
 */
export async function readyToCreate(
  run: Run,
  { spec, accountName, client, desired }: Desired,
): Promise<void> {
  const links = run.kind.links?.(spec) ?? [];
  const account = `${run.meta.namespace}/${accountName}`;
  await run.around.links?.require(account, client, links, run.policy.dependencyRetryMs);
  await run.kind.beforeWrite?.(client, desired);
}

export async function recordHref(run: Run, href: string): Promise<void> {
  run.status.href = href;
  run.rememberOwnHref(href);
  // Status first: the annotation write that follows then reads as ours, not as a hand adoption.
  // What only the reconcile knows about the new object is recorded with its href, so a crash cannot lose it.
  const known = { applied: run.status.applied, adopted: run.status.adopted };
  const patch = mergePatch(run.obj.status ?? {}, { ...(run.obj.status ?? {}), href, ...known });
  if (patch) await run.patchStatus(patch as Record<string, unknown>);
  await run.patchMetadata(
    { annotations: { [Annotation.href]: href, [Annotation.createPending]: null } },
    false,
  );
}

/**
 * A create's href not yet written, on a path that ends without the status write: recorded on
 * its own. Should that fail too, the create-pending annotation still stands (a lookup, not a
 * second create).
 */
export async function recordUnrecordedHref(run: Run): Promise<void> {
  const href = run.unrecordedHref;
  if (href === undefined) return;
  await recordHref(run, href).catch((error: unknown) =>
    run.log.warn({ err: error, href }, "could not record the href of a create; a lookup will find it"),
  );
}
