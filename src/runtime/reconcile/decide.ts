import type { ObjectStore } from "../client/index.ts";
import { describeCycle, referenceProblem } from "../indexes/index.ts";
import type { AnyManagedKind, FieldDiff, Reference, ResolvedReference } from "../sdk/index.ts";
import {
  Annotation,
  DependencyNotReadyError,
  deepEqual,
  InvalidSpecError,
  objectKey,
  Reason,
  type TerminalError,
  terminal,
  WaitError,
} from "../sdk/index.ts";

/**
 * The reconciler's decisions as pure functions of what it knows, with the errors it ends on. The
 * phases (one file each beside this one) act on them; `svc-operator plan` asks the same questions
 * without acting, so what plan says is what the operator then does.
 */

/** What converge does with an existing object whose fields differ as `diff` says. */
export type Change =
  | { type: "none" }
  | { type: "update"; diff: FieldDiff[] }
  | { type: "replace"; how: "createBeforeDelete" | "deleteBeforeCreate"; locked: FieldDiff[] }
  | { type: "immutable"; locked: FieldDiff[]; error: TerminalError };

/** `diff`: the kind's diff and the write-only differences (`writeOnlyChanges`). */
export function decideChange(kind: AnyManagedKind, diff: FieldDiff[]): Change {
  const locked = diff.filter((d) => kind.immutable?.includes(d.field));
  if (locked.length > 0) {
    if (kind.replace) return { type: "replace", how: kind.replace, locked };
    return { type: "immutable", locked, error: immutableFields(kind.kind, locked) };
  }
  return diff.length === 0 ? { type: "none" } : { type: "update", diff };
}

/** An immutable field changed on a kind that cannot replace: Stalled, naming the fields. */
export function immutableFields(kind: string, locked: readonly FieldDiff[]): TerminalError {
  return terminal(
    Reason.ImmutableField,
    `${locked.map((d) => `spec.${d.field}`).join(", ")} cannot be changed on an existing ${kind} ` +
      `(service has ${locked.map((d) => JSON.stringify(d.observed)).join(", ")}); create a new ${kind} instead`,
  );
}

/** The kind's write-only values without undefined entries, or undefined when it has none. */
export function writeOnlyValues(kind: AnyManagedKind, desired: unknown): Record<string, unknown> | undefined {
  const values = kind.writeOnly?.(desired);
  if (!values) return undefined;
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/**
 * Write-only fields whose desired value differs from the one last applied; undefined without a
 * record (an object adopted by href): the spec is then taken as applied, nothing can tell otherwise.
 */
export function writeOnlyChanges(
  values: Record<string, unknown>,
  applied: Record<string, unknown> | undefined,
): FieldDiff[] | undefined {
  if (applied === undefined) return undefined;
  return [...new Set([...Object.keys(values), ...Object.keys(applied)])]
    .filter((field) => !deepEqual(values[field], applied[field]))
    .map((field) => ({ field, desired: values[field], observed: applied[field] }));
}

/** An ObserveOnly resource names no service object: nothing to observe. */
export function observeOnlyWithoutHref(): InvalidSpecError {
  return new InvalidSpecError(
    "managementPolicy",
    `ObserveOnly needs the ${Annotation.href} annotation naming the service object to observe`,
  );
}

/** An ObserveOnly resource's service object is gone: it waits (never re-creates it). */
export function observedGone(href: string): WaitError {
  return new WaitError(Reason.NotFound, `${href} does not exist in the service`, 60_000);
}

/** Without an href, whether the object is looked up before any create: a pending create, or a kind that adopts. */
export function looksUp(kind: AnyManagedKind, createPending: boolean): boolean {
  return createPending || kind.adoptExisting === true;
}

/** More than one service object matches a lookup: stop rather than guess. */
export function ambiguous(hrefs: readonly string[], createPending: boolean): TerminalError {
  return terminal(
    Reason.AmbiguousCreate,
    `${createPending ? "a create was pending and " : ""}${hrefs.length} service objects match: ${hrefs.join(", ")}; ` +
      `set the ${Annotation.href} annotation to the right one`,
  );
}

/** The references lead back to the object (`cycle`, from ReferenceIndex.cycleThrough): Stalled, naming it. */
export function referenceCycle(
  namespace: string,
  references: readonly Reference[],
  cycle: readonly string[],
): TerminalError {
  const first = references.find((r) => objectKey(r.kind, namespace, r.name) === cycle[1]);
  return terminal(
    Reason.ReferenceCycle,
    `${first ? `spec.${first.field}: ` : ""}the references form a cycle: ${describeCycle(cycle)}; ` +
      "none of them can become Ready until one of these references is removed",
  );
}

/**
 * The references by field, or DependencyNotReady saying of each that is not usable why
 * (reference-state.ts). An after-create association that is not usable yet is left out, not
 * waited for: `associations` says why, for the Ready message.
 */
export function resolveReferences(
  store: Pick<ObjectStore, "get">,
  namespace: string,
  references: readonly Reference[],
  retryAfterMs?: number,
): { refs: Record<string, ResolvedReference>; associations: string[] } {
  const refs: Record<string, ResolvedReference> = {};
  const waiting: string[] = [];
  const associations: string[] = [];
  for (const r of references) {
    const target = store.get(r.kind, namespace, r.name);
    const problem = referenceProblem(r.kind, r.name, target);
    const href = target?.status?.href;
    if (problem === undefined && target && href)
      refs[r.field] = { kind: r.kind, name: r.name, href, atProvider: target.status?.atProvider ?? {} };
    else
      (r.afterCreate ? associations : waiting).push(
        `spec.${r.field}: ${problem ?? `${r.kind} ${r.name} (not Ready)`}`,
      );
  }
  if (waiting.length > 0)
    throw new DependencyNotReadyError(`waiting for ${waiting.join("; ")}`, retryAfterMs);
  return { refs, associations };
}
