import { onlyWaitsForReferences } from "../indexes/index.ts";
import type { ManagedObject, Reference, ResolvedReference } from "../sdk/index.ts";
import { DEPENDENCY_RETRY_MS, DependencyNotReadyError } from "../sdk/index.ts";
import type { PhaseRun as Run } from "./context.ts";
import { resolveReferences } from "./decide.ts";
import type { Desired, Validated } from "./state.ts";
import { AwaitingReferencesError } from "./state.ts";

/**
 * Phase 3: whether the Account and the referenced resources are Ready and the keys the spec reads
 * are there; from them, the desired state.
 */
export async function references(run: Run, valid: Validated): Promise<Desired> {
  const client = run.client(valid.accountName);
  const { refs, associations } = resolve(run, valid.references);
  const sources = await readSources(run, valid);
  const desired = await run.kind.desired(valid.spec, {
    ...run.desiredContext(client, valid.accountName, refs),
    sources,
  });
  return { ...valid, client, desired, associations };
}

/**
 * The ConfigMap and Secret keys the spec names (key-sources.ts): their fields are masked in the
 * audit trail whatever happens; an ObserveOnly resource writes nothing, so it reads nothing.
 */
async function readSources(run: Run, valid: Validated): Promise<Record<string, Buffer> | undefined> {
  const wanted = run.kind.keySources?.(valid.spec) ?? [];
  for (const s of wanted) run.mask(s.field);
  const keySources = run.around.keySources;
  if (wanted.length === 0 || valid.observeOnly || !keySources) return undefined;
  const read = await keySources.values(run.key, run.meta.namespace, wanted, run.policy.dependencyRetryMs);
  run.sourcesChanged = read.changed;
  return read.values;
}

/** The references by field (decide.ts, shared with `svc-operator plan`). */
function resolve(
  run: Run,
  references: Reference[],
): { refs: Record<string, ResolvedReference>; associations: string[] } {
  try {
    return resolveReferences(run.around.store, run.meta.namespace, references, run.policy.dependencyRetryMs);
  } catch (error) {
    if (error instanceof DependencyNotReadyError && parksOnce(run, references))
      throw new AwaitingReferencesError();
    throw error;
  }
}

/**
 * A resource never recorded whose targets not Ready yet are all on their way (no status yet, or
 * working, nothing blocking) waits without a write: each target's Ready wakes it (ReferenceIndex),
 * so a backlog of dependents does not cost a status write (and an Event) each before its create.
 * Once it has waited so for dependencyRetryMs, its next reconcile records the wait.
 */
function parksOnce(run: Run, references: Reference[]): boolean {
  if (run.obj.status?.conditions?.length) return false;
  const now = run.now();
  const since = run.memory.parked.get(run.key);
  if (since !== undefined && now - since >= (run.policy.dependencyRetryMs ?? DEPENDENCY_RETRY_MS))
    return false;
  const { namespace } = run.meta;
  const targets = references.filter((r) => !r.afterCreate).map((r) => ({ ...r, namespace }));
  const onTheirWay = onlyWaitsForReferences(run.obj, targets, (kind, ns, name) =>
    run.around.store.get(kind, ns, name),
  );
  if (onTheirWay && since === undefined) run.memory.parked.set(run.key, now);
  return onTheirWay;
}

/** References for computing the desired state during deletion: whatever resolves. */
export function resolveLoosely(run: Run, spec: Record<string, unknown>): Record<string, ResolvedReference> {
  const out: Record<string, ResolvedReference> = {};
  for (const r of run.kind.references(spec)) {
    const target = run.around.store.get(r.kind, run.meta.namespace, r.name);
    if (target?.status?.href) out[r.field] = resolved(r, target, target.status.href);
  }
  return out;
}

function resolved(r: Reference, target: ManagedObject, href: string): ResolvedReference {
  return { kind: r.kind, name: r.name, href, atProvider: target.status?.atProvider ?? {} };
}
