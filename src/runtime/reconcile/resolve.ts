import { isTrue } from "../conditions.ts";
import type { ManagedObject, Reference, ResolvedReference } from "../kind.ts";
import { DependencyNotReadyError } from "../result.ts";
import type { Run } from "./run.ts";
import type { Desired, Validated } from "./state.ts";

/** Phase 3: whether the Account and the referenced resources are Ready; from them, the desired state. */
export async function references(run: Run, valid: Validated): Promise<Desired> {
  const client = run.client(valid.accountName);
  const refs = resolve(run, valid.references);
  const desired = await run.kind.desired(valid.spec, run.desiredContext(client, valid.accountName, refs));
  return { ...valid, client, desired };
}

function resolve(run: Run, references: Reference[]): Record<string, ResolvedReference> {
  const out: Record<string, ResolvedReference> = {};
  const waiting: string[] = [];
  for (const r of references) {
    const target = run.deps.store.get(r.kind, run.meta.namespace, r.name);
    if (!target) waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (not found)`);
    else if (target.metadata.deletionTimestamp)
      waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (being deleted)`);
    else if (!isTrue(target.status?.conditions, "Ready") || !target.status?.href)
      waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (not Ready)`);
    else out[r.field] = resolved(r, target, target.status.href);
  }
  if (waiting.length > 0) {
    throw new DependencyNotReadyError(`waiting for ${waiting.join(", ")}`, run.deps.dependencyRetryMs);
  }
  return out;
}

/** References for computing the desired state during deletion: whatever resolves. */
export function resolveLoosely(run: Run, spec: Record<string, unknown>): Record<string, ResolvedReference> {
  const out: Record<string, ResolvedReference> = {};
  for (const r of run.kind.references(spec)) {
    const target = run.deps.store.get(r.kind, run.meta.namespace, r.name);
    if (target?.status?.href) out[r.field] = resolved(r, target, target.status.href);
  }
  return out;
}

function resolved(r: Reference, target: ManagedObject, href: string): ResolvedReference {
  return { kind: r.kind, name: r.name, href, atProvider: target.status?.atProvider ?? {} };
}
