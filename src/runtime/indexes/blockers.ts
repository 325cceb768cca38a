import type { ObjectStore } from "../client/index.ts";
import { getCondition, parseKey, Reason } from "../sdk/index.ts";
import { clip } from "./reference-state.ts";
import type { ReferenceIndex } from "./references.ts";

/** A dependent that still exists and so holds the deletion of what it references back. */
export interface Blocker {
  kind: string;
  name: string;
  /** It is being deleted itself: it goes by itself, nobody has to act. */
  deleting: boolean;
  /** When deleting: its own dependents that still exist (`Kind name`), what it waits for in turn. */
  waitingFor: string[];
  /** When deleting and waiting for no dependent: what its Ready condition says holds it (a retried delete). */
  state?: string;
  /**
   * When not deleting: its spec fields naming this object that can never change (`networkRef`):
   * only deleting it lets this object go.
   */
  fixed?: string[];
}

/** The fields of a dependent's spec naming `target` that can never change (sdk's fixedReferences). */
export type FixedFields = (
  dependent: { kind: string; spec: unknown },
  target: { kind: string; name: string },
) => string[];

/** Names listed in one message: a namespace of thousands must not make a condition of megabytes. */
const LISTED = 10;
const NESTED = 3;
const STATE_CHARS = 120;

/**
 * The dependents of `key` (a queue key) that still exist in the cache, each with what it waits for;
 * `fixed` tells which of those not being deleted name it through fields that cannot change.
 */
export function blockersOf(
  key: string,
  refs: ReferenceIndex,
  store: ObjectStore,
  fixed?: FixedFields,
): Blocker[] {
  const existing = (k: string) => {
    const { kind, namespace, name } = parseKey(k);
    const obj = store.get(kind, namespace, name);
    return obj ? { kind, name, obj } : undefined;
  };
  const out: Blocker[] = [];
  for (const dependent of refs.dependents(key)) {
    const found = existing(dependent);
    if (!found) continue;
    const deleting = Boolean(found.obj.metadata.deletionTimestamp);
    if (deleting && refs.reaches(key, dependent) && !refs.associates(dependent, key)) {
      // A dependent being deleted that this object references in turn (a reference cycle) waits
      // for this one as this one would wait for it: it holds this one back only while it waits
      // for others, outside the cycle (a route table for its routes, before its network goes).
      const others = refs
        .dependents(dependent)
        .filter((d) => d !== key && existing(d) && !refs.reaches(key, d));
      if (others.length === 0) continue;
    }
    // Held only by an after-create association, this one waits for the holder even in a cycle:
    // the association goes with it, and so may this object (a network's deletion takes its
    // default route table along, where deleting the table first would be refused).
    const blocker: Blocker = { kind: found.kind, name: found.name, deleting, waitingFor: [] };
    if (!deleting && fixed) {
      const fields = fixed({ kind: found.kind, spec: found.obj.spec }, parseKey(key));
      if (fields.length > 0) blocker.fixed = fields;
    }
    if (deleting) {
      for (const next of refs.dependents(dependent)) {
        // Not this object itself (a cycle): what it waits for besides.
        if (next === key) continue;
        const n = existing(next);
        if (n) blocker.waitingFor.push(`${n.kind} ${n.name}`);
      }
      const ready = getCondition(found.obj.status?.conditions, "Ready");
      if (
        blocker.waitingFor.length === 0 &&
        ready?.status === "False" &&
        ready.reason !== Reason.DeletionBlocked &&
        ready.message
      )
        blocker.state = ready.message;
    }
    out.push(blocker);
  }
  return out;
}

/** What `key` references that is being deleted too: its DeletionBlocked message names `key`. */
export function deletingTargets(key: string, refs: ReferenceIndex, store: ObjectStore): string[] {
  return refs.targets(key).filter((target) => {
    const { kind, namespace, name } = parseKey(target);
    return Boolean(store.get(kind, namespace, name)?.metadata.deletionTimestamp);
  });
}

/** Whether someone has to act for the deletion to go on: a blocker nobody is deleting. */
export function needsAction(blockers: readonly Blocker[]): boolean {
  return blockers.some((b) => !b.deleting);
}

/**
 * The DeletionBlocked message: when every blocker is being deleted, that nobody has to act and
 * what each waits for; otherwise which ones the user must delete first, or, where their
 * references may change, point elsewhere. `referencedAs` says what their references name
 * (`spec.accountRef`, `references to Network main`).
 */
export function blockedMessage(blockers: readonly Blocker[], referencedAs: string): string {
  const deleting = blockers.filter((b) => b.deleting);
  const staying = blockers.filter((b) => !b.deleting);
  const going =
    deleting.length === 0
      ? ""
      : `waiting for ${count(deleting.length, "dependent")} being deleted: ${list(deleting.map(describe), LISTED)}`;
  if (staying.length === 0) return going;
  const held =
    `still used by ${count(staying.length, "resource")} not being deleted: ` +
    `${list(staying.map(nameOf), LISTED)}; ${whatToDo(staying, referencedAs)}`;
  return going ? `${held}; also ${going}` : held;
}

/** Delete those whose references cannot change; delete or repoint the others. */
function whatToDo(staying: readonly Blocker[], referencedAs: string): string {
  const fixed = staying.filter((b) => b.fixed);
  const free = staying.filter((b) => !b.fixed);
  // One group: "it"/"them" (the list just named them); both: each group by name.
  const which = (group: readonly Blocker[]) =>
    group.length === staying.length ? (group.length === 1 ? "it" : "them") : list(group.map(nameOf), LISTED);
  const its = (group: readonly Blocker[]) => (group.length === 1 ? "its" : "their");
  const steps: string[] = [];
  if (fixed.length > 0) {
    const fields = [...new Set(fixed.flatMap((b) => b.fixed!))].map((f) => `spec.${f}`);
    steps.push(`delete ${which(fixed)} (${its(fixed)} ${fields.join(" and ")} cannot be changed)`);
  }
  if (free.length > 0) steps.push(`delete ${which(free)} or change ${its(free)} ${referencedAs}`);
  return steps.join("; ");
}

const nameOf = (b: Blocker) => `${b.kind} ${b.name}`;

function describe(b: Blocker): string {
  if (b.waitingFor.length > 0)
    return `${b.kind} ${b.name} (deleting: waiting for ${list(b.waitingFor, NESTED)})`;
  if (b.state) return `${b.kind} ${b.name} (deleting: ${clip(b.state, STATE_CHARS)})`;
  return `${b.kind} ${b.name} (deleting)`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function list(items: readonly string[], max: number): string {
  if (items.length <= max) return items.join(", ");
  return `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
}
