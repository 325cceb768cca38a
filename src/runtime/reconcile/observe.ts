import { createdFields } from "../audit/index.ts";
import { Annotation, EventReason, FINALIZER, invalidHref, selfLinkMismatch } from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { recordHref } from "./create.ts";
import { ambiguous, looksUp, observedGone, observeOnlyWithoutHref } from "./decide.ts";
import type { Desired, Observed } from "./state.ts";

type Found = Pick<Observed, "href" | "observed" | "recreate">;

/** Phase 4: which external object this resource stands for: the one at its href, or one a lookup adopts. */
export async function observeOrAdopt(run: Run, state: Desired): Promise<Observed> {
  const href = run.currentHref();
  if (state.withFinalizer && href) await run.patchMetadata({ finalizers: state.withFinalizer }, true);
  let found: Found = { href: undefined, observed: undefined, recreate: false };
  if (href) found = await observeByHref(run, state, href);
  else if (state.observeOnly) throw observeOnlyWithoutHref();
  const pending = run.annotations[Annotation.createPending] !== undefined;
  if (!found.href && looksUp(run.kind, pending)) {
    const adopted = await adopt(run, state, pending);
    if (adopted) found = { ...found, ...adopted };
  }
  return { ...state, ...found };
}

/** Reads the object at the href; a gone one is forgotten, to be created again. */
async function observeByHref(run: Run, state: Desired, href: string): Promise<Found> {
  // An href annotation status does not know was set by hand: an adoption. Not one this process's
  // create recorded (the cache may show that annotation before the status written after it).
  const annotated = run.annotations[Annotation.href];
  if (annotated && annotated !== run.status.href && annotated !== run.ownHref()) {
    run.event(EventReason.Adopted, `adopted ${href}`);
  }
  const observed = run.around.observations?.take(run.key, href) ?? (await run.observe(state, href));
  if (observed === undefined) {
    if (state.observeOnly) throw observedGone(href);
    run.log.info({ href }, "external object is gone; re-creating it");
    run.forgetExternal();
    await run.patchMetadata({ annotations: { [Annotation.href]: null } }, false);
    return { href: undefined, observed: undefined, recreate: true };
  }
  refuseOtherSelf(run, href, observed);
  run.status.href = href;
  // A status with the href and no annotation (a write that failed, or an operator of an
  // earlier version stopped between the two): the annotation, and the pending one cleared.
  if (run.annotations[Annotation.href] !== href || run.annotations[Annotation.createPending] !== undefined) {
    await run.patchMetadata(
      { annotations: { [Annotation.href]: href, [Annotation.createPending]: null } },
      false,
    );
  }
  return { href, observed, recreate: false };
}

/** A pending create's object, or (for a kind that adopts) one that already existed, recorded as ours. */
async function adopt(
  run: Run,
  state: Desired,
  pending: boolean,
): Promise<{ href: string; observed: unknown } | undefined> {
  const found = await lookupPending(run, state.client, state.desired, pending);
  if (!found) return undefined;
  const href = run.kind.hrefOf(found);
  // Found without a pending create of ours: it existed before, and status says so.
  if (!pending) run.status.adopted = true;
  if (state.withFinalizer && !(run.meta.finalizers ?? []).includes(FINALIZER)) {
    await run.patchMetadata({ finalizers: state.withFinalizer }, true);
  }
  await recordHref(run, href);
  if (pending) {
    run.event(EventReason.CreatePendingResolved, `found ${href} created by an earlier attempt; adopted it`);
    run.audited(
      "created",
      href,
      createdFields(state.spec),
      state.desired,
      "found after a create whose answer was lost",
    );
  } else run.event(EventReason.Adopted, `found ${href} already in the service; adopted it`);
  return { href, observed: found };
}

/** A create was pending: find what it may have created; more than one candidate stops. */
export async function lookupPending(
  run: Run,
  client: unknown,
  desired: unknown,
  pending = true,
): Promise<unknown | undefined> {
  let candidates = await run.kind.lookup(client, desired, run.lookupContext(client));
  // Never adopt what another custom resource holds: that would make two owners.
  if (pending || run.kind.adoptExisting) {
    const identity = run.kind.adoptExisting === true;
    const hrefOf = (c: unknown) => run.kind.hrefOf(c);
    candidates = run.around.owners.adoptable(run.kind.kind, run.obj, candidates, hrefOf, identity);
  }
  if (candidates.length > 1)
    throw ambiguous(
      candidates.map((c) => run.kind.hrefOf(c)),
      pending,
    );
  return candidates[0];
}

/**
 * The service's self link is the identity: an object shown at `href` whose self link is another
 * (an id the service reads loosely, `01` for `1`) is not the one `href` names, and this resource
 * may neither write nor delete it.
 */
export function refuseOtherSelf(run: Run, href: string, observed: unknown): void {
  const mismatch = selfLinkMismatch(href, run.kind.hrefOf(observed));
  if (!mismatch) return;
  const where =
    run.annotations[Annotation.href] === href ? `metadata.annotations[${Annotation.href}]` : "status.href";
  throw invalidHref(where, mismatch);
}
