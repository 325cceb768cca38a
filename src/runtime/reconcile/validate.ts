import { referenceKeys } from "../indexes/index.ts";
import type { Reference } from "../sdk/index.ts";
import { Annotation, FINALIZER, hrefProblem, invalidHref, parseSpec } from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { referenceCycle } from "./decide.ts";
import { deleted } from "./delete.ts";
import type { Admitted, End, Validated } from "./state.ts";

/** Phase 1: whether to reconcile at all (a paused object is left alone, a released one is gone). */
export async function pausedOrDeleted(run: Run): Promise<Admitted | End> {
  const deleting = Boolean(run.meta.deletionTimestamp);
  const hasFinalizer = (run.meta.finalizers ?? []).includes(FINALIZER);
  if (run.annotations[Annotation.paused] === "true") {
    if (deleting && hasFinalizer) {
      // Paused: the external object is left alone, the custom resource may go.
      await run.removeFinalizer();
      return { end: "gone" };
    }
    return { end: { type: "paused" } };
  }
  if (deleting && !hasFinalizer) return { end: "gone" };
  return { deleting, hasFinalizer };
}

/** Phase 2: whether the spec is valid and this resource may write its href; a deletion goes on from here. */
export async function validated(run: Run, { deleting, hasFinalizer }: Admitted): Promise<Validated | End> {
  let spec: Record<string, unknown>;
  try {
    spec = parseSpec(run.kind.schema, run.obj.spec) as Record<string, unknown>;
  } catch (error) {
    if (deleting) {
      // An invalid spec must not keep an object from being deleted: nothing was created from it.
      if (!run.currentHref()) {
        await run.removeFinalizer();
        return { end: "gone" };
      }
    }
    throw error;
  }
  // Before anything is written, a deletion too: an href in another spelling names no object of ours.
  refuseNonCanonicalHref(run);
  const references = run.kind.references(spec);
  const accountName = (spec.accountRef as { name: string }).name;
  const keys = referenceKeys(run.meta.namespace, accountName, references);
  run.around.refs.set(run.key, keys.targets, keys.after);

  if (deleting) return { end: await deleted(run, spec, accountName) };

  run.kind.validate?.(spec, run.meta);
  refuseCycle(run, references);
  const observeOnly = spec.managementPolicy === "ObserveOnly";
  // Before the finalizer and any service call: a resource that does not own its href writes nothing.
  if (!observeOnly) run.around.owners.require(run.kind.kind, run.obj);
  // The finalizer goes on before any write to the service: with the create-pending
  // annotation in one patch when creating, on its own otherwise.
  const withFinalizer =
    !observeOnly && !hasFinalizer ? [...(run.meta.finalizers ?? []), FINALIZER] : undefined;
  return { spec, references, accountName, observeOnly, withFinalizer };
}

/**
 * The references lead back to this object (a Deployment in a ResourceGroup that names the
 * Deployment): each object of the cycle waits for the next to be Ready, forever. Stalled instead,
 * naming the cycle and the reference that starts it; removing any reference of the cycle lets
 * them all proceed (each one Ready wakes the next).
 */
function refuseCycle(run: Run, references: readonly Reference[]): void {
  const cycle = run.around.refs.cycleThrough(run.key);
  if (cycle) throw referenceCycle(run.meta.namespace, references, cycle);
}

/** The href annotation in a spelling other than the service's own: InvalidHref, nothing written. */
function refuseNonCanonicalHref(run: Run): void {
  const annotated = run.annotations[Annotation.href];
  if (annotated === undefined || annotated === "") return;
  const problem = hrefProblem(annotated);
  if (problem) throw invalidHref(`metadata.annotations[${Annotation.href}]`, `${annotated} ${problem}`);
}
