import type { ManagedObject } from "../sdk/index.ts";
import { Annotation, getCondition, isTrue, type Reason, WaitingReasons } from "../sdk/index.ts";

/**
 * How much of a referenced resource's own message a dependent quotes: enough for the service's
 * answer, and a chain of dependents (each quoting the one before) stays a few hundred characters.
 */
export const QUOTED_CHARS = 200;

const WAITING = new Set<string>(WaitingReasons);

/**
 * Why a referenced resource cannot be used, as its dependents' DependencyNotReady message says it
 * (after `spec.<field>: `); undefined when it is usable (Ready, with an href). A stalled or waiting
 * one is described with its own reason and message, so that the dependent says what to fix
 * instead of only that it waits.
 */
export function referenceProblem(
  kind: string,
  name: string,
  target: ManagedObject | undefined,
): string | undefined {
  if (!target) return `${kind} ${name} (not found)`;
  if (target.metadata.deletionTimestamp) return `${kind} ${name} (being deleted)`;
  if (isTrue(target.status?.conditions, "Ready") && target.status?.href) return undefined;
  return blockedState(kind, name, target) ?? `${kind} ${name} (not Ready)`;
}

/**
 * A referenced resource that will not become Ready by itself, in words: Stalled (only a change of
 * its spec helps) or waiting for something in turn. Undefined otherwise, and for conditions
 * computed for an older generation (its new spec may have fixed it).
 */
export function blockedState(
  kind: string,
  name: string,
  target: ManagedObject | undefined,
): string | undefined {
  if (!target || target.metadata.deletionTimestamp) return undefined;
  const { generation } = target.metadata;
  if (generation !== undefined && target.status?.observedGeneration !== generation) return undefined;
  const conditions = target.status?.conditions;
  const stalled = getCondition(conditions, "Stalled");
  if (stalled?.status === "True")
    return `${kind} ${name} is Stalled (${stalled.reason}: ${clip(stalled.message)}): fix ${kind} ${name} first`;
  const ready = getCondition(conditions, "Ready");
  if (ready?.status !== "False" || !WAITING.has(ready.reason as Reason)) return undefined;
  // Its message usually starts the way a dependent's does: one "waiting for", not two.
  const message = clip(ready.message);
  return message.startsWith("waiting for ")
    ? `${kind} ${name} is ${message}`
    : `${kind} ${name} is waiting (${ready.reason}: ${message})`;
}

/** `text` cut to at most `max` characters, an ellipsis marking the cut. */
export function clip(text: string, max = QUOTED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/**
 * Whether a resource would only wait, unrecorded, if reconciled now: never recorded (no
 * conditions), not paused or being deleted, and each reference it needs at create (not an
 * after-create association, not its Account) found and on its way to Ready, nothing blocking it.
 * The test of the reconcile's parking (resolve.ts parksOnce), and of not reconciling a resource
 * only to park it (InformerEvents.enqueueOrPark).
 */
export function onlyWaitsForReferences(
  obj: ManagedObject,
  targets: Iterable<{ kind: string; namespace: string; name: string }>,
  get: (kind: string, namespace: string, name: string) => ManagedObject | undefined,
): boolean {
  if (obj.status?.conditions?.length || obj.metadata.deletionTimestamp) return false;
  if (obj.metadata.annotations?.[Annotation.paused] === "true") return false;
  let waits = false;
  for (const t of targets) {
    const problem = referenceProblem(t.kind, t.name, get(t.kind, t.namespace, t.name));
    if (problem === undefined) continue;
    if (problem !== `${t.kind} ${t.name} (not Ready)`) return false;
    waits = true;
  }
  return waits;
}
