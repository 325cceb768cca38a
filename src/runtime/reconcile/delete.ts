import { blockedMessage, blockersOf, type FixedFields, needsAction } from "../indexes/index.ts";
import { Annotation, DeletionBlockedError, EventReason, fixedReferences } from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { lookupPending } from "./observe.ts";
import { resolveLoosely } from "./resolve.ts";

/** Deletion: whether dependents still hold the object, and whether its external object goes or stays. */
export async function deleted(run: Run, spec: Record<string, unknown>, accountName: string): Promise<"gone"> {
  const blockers = blockersOf(run.key, run.around.refs, run.around.store, fixedFields(run));
  if (blockers.length > 0) {
    throw new DeletionBlockedError(
      blockedMessage(blockers, `references to ${run.kind.kind} ${run.meta.name}`),
      run.policy.dependencyRetryMs,
      needsAction(blockers),
    );
  }
  const href = run.currentHref();
  if (spec.managementPolicy === "ObserveOnly" || spec.deletionPolicy === "Orphan") {
    if (href)
      run.event(
        EventReason.Orphaned,
        `left ${href} in the service (${spec.deletionPolicy === "Orphan" ? "deletionPolicy Orphan" : "ObserveOnly"})`,
      );
    return release(run);
  }
  const retained = href
    ? (run.around.owners.retainReason(run.kind.kind, run.obj, href) ?? run.kind.retain?.(spec, run.status))
    : undefined;
  if (retained) {
    run.event(EventReason.Orphaned, `left ${href} in the service: ${retained}`);
    return release(run);
  }
  await deleteSuperseded(run, accountName, href);
  const pending = run.annotations[Annotation.createPending] !== undefined;
  if (href || pending) await deleteExternal(run, spec, accountName, href);
  return release(run);
}

/** Which references of a dependent can never change, by its kind (none known without the kinds). */
function fixedFields(run: Run): FixedFields | undefined {
  const kindOf = run.around.kindOf;
  if (!kindOf) return undefined;
  return (dependent, target) => {
    const kind = kindOf(dependent.kind);
    return kind ? fixedReferences(kind, dependent.spec, target) : [];
  };
}

/** A replacement was under way: its superseded object goes too, unless another resource manages it. */
async function deleteSuperseded(run: Run, accountName: string, href: string | undefined): Promise<void> {
  const replaced = run.status.replaces;
  if (replaced === undefined || replaced === href) return;
  const retained = run.around.owners.retainReason(run.kind.kind, run.obj, replaced);
  if (retained) {
    run.event(EventReason.Orphaned, `left ${replaced}, which a replacement superseded: ${retained}`);
    return;
  }
  const client = run.client(accountName, "delete");
  const current = await run.kind.observe(client, replaced, undefined);
  if (current !== undefined) {
    await run.deleteInService(client, replaced, current, {
      action: "deleted",
      note: "superseded by a replacement",
    });
    run.event(EventReason.Deleted, `deleted ${replaced} (superseded by a replacement)`);
  }
}

/** Deletes the external object: the one at the href, or the one a pending create may have made. */
async function deleteExternal(
  run: Run,
  spec: Record<string, unknown>,
  accountName: string,
  known: string | undefined,
): Promise<void> {
  const client = run.client(accountName, "delete");
  let desired: unknown;
  try {
    desired = await run.kind.desired(
      spec,
      run.desiredContext(client, accountName, resolveLoosely(run, spec)),
    );
  } catch {
    desired = undefined;
  }
  let href = known;
  let observed: unknown;
  if (!href && desired !== undefined) {
    observed = await lookupPending(run, client, desired);
    href = observed === undefined ? undefined : run.kind.hrefOf(observed);
  } else if (href && !run.deletedEarlier(href)) {
    // Not read again once deleted: the finalizer's write conflicted, and the object is known gone.
    observed = await run.kind.observe(client, href, desired);
  }
  if (href && observed !== undefined) {
    await run.deleteInService(client, href, observed, { action: "deleted" });
    run.event(EventReason.Deleted, `deleted ${href}`);
  } else if (href) {
    // Deleted with what held it (a network's default route table goes with the network): its
    // entry, which says it was created, says it is gone too.
    run.auditedGone(href);
  }
}

async function release(run: Run): Promise<"gone"> {
  await run.removeFinalizer();
  return "gone";
}
