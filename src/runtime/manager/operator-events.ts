import type { AccountController } from "../accounts/index.ts";
import type { ObjectStore } from "../client/index.ts";
import type { OwnerIndex, SiblingIndex } from "../indexes/index.ts";
import {
  blockedState,
  deletingTargets,
  onlyWaitsForReferences,
  type ReferenceIndex,
  referenceKeys,
} from "../indexes/index.ts";
import type { AnyManagedKind, ManagedObject } from "../sdk/index.ts";
import { Annotation, getCondition, isTrue, objectKey, parseKey, Reason } from "../sdk/index.ts";
import type { WorkQueue } from "./queue.ts";

export interface InformerEventsOptions {
  kinds: AnyManagedKind[];
  store: ObjectStore;
  refs: ReferenceIndex;
  owners: OwnerIndex;
  siblings: SiblingIndex;
  accounts: Pick<AccountController, "checkAhead" | "parkIfPending">;
  /** The work queue while this replica reconciles; undefined otherwise. */
  queue: () => WorkQueue | undefined;
  /** True when an Account listed before the workers start is checked at once (no election). */
  checkAhead: () => boolean;
  /**
   * A resource left unreconciled until its references' Ready wakes it (enqueueOrPark): its
   * reconciler counts its wait from now; answers how long until it is queued anyway.
   */
  parkAhead?: (key: string) => number;
}

/** How soon a resource that lists its contents in status looks again after one of them turned Ready. */
export const CONTENTS_LOOK_MS = 1_000;
/**
 * The same while another of its contents is still on its way: the last one's Ready brings the look
 * forward (one look for a table whose subnet and route turn Ready seconds apart), and one that
 * never turns Ready (stalled) delays the look only this long.
 */
export const CONTENTS_LOOK_PENDING_MS = 10_000;

/**
 * The informers' handlers: they keep the indexes (references, owners, siblings) in step with
 * the cache and enqueue the keys an event concerns, never reconciling themselves.
 */
export class InformerEvents {
  private readonly o: InformerEventsOptions;

  constructor(options: InformerEventsOptions) {
    this.o = options;
  }

  /** `urgent`: a dependent woken by its reference's Ready starts ahead of a backlog (WorkQueue.add). */
  enqueue(key: string, urgent = false): void {
    // A resource whose Account is on its first credentials check would only park (thousands
    // at an operator start): the Account wakes its dependents, in dependency order, instead.
    const account = this.o.refs.targetOfKind(key, "Account");
    if (account !== undefined && this.o.accounts.parkIfPending(account)) return;
    this.o.queue()?.add(key, urgent);
  }

  /**
   * Queues a resource, unless its reconcile would only park (its references all on their way,
   * reference-state.ts): each reference's Ready wakes it, and it is queued anyway once parking
   * would end (parkAhead). A backlog of new dependents (an operator start, an apply of a whole
   * set) then costs no reconcile each before its references are Ready.
   */
  enqueueOrPark(key: string, urgent = false): void {
    const queue = this.o.queue();
    const parkAhead = this.o.parkAhead;
    if (!queue || !parkAhead || !this.onlyWaits(key)) {
      this.enqueue(key, urgent);
      return;
    }
    const account = this.o.refs.targetOfKind(key, "Account");
    if (account !== undefined && this.o.accounts.parkIfPending(account)) return;
    queue.addAfter(key, parkAhead(key));
  }

  /** Whether the resource's reconcile would only park now (reference-state.ts). */
  private onlyWaits(key: string): boolean {
    const { refs, store } = this.o;
    const k = parseKey(key);
    const obj = store.get(k.kind, k.namespace, k.name);
    // A member of a reference cycle would wait for itself: its reconcile says so (ReferenceCycle).
    if (!obj || refs.cycleThrough(key)) return false;
    const targets = [...refs.targets(key)]
      .filter((t) => !refs.associates(key, t))
      .map(parseKey)
      .filter((t) => t.kind !== "Account");
    return onlyWaitsForReferences(obj, targets, (kind, namespace, name) => store.get(kind, namespace, name));
  }

  added(kind: string, obj: ManagedObject): void {
    // An Account listed while the caches first fill: its credentials check need not wait for
    // them (a standby replica, which may never lead, does not check).
    if (kind === "Account" && this.o.checkAhead())
      this.o.accounts.checkAhead(obj.metadata.namespace, obj.metadata.name);
    this.indexReferences(kind, obj);
    if (kind !== "Account") this.o.owners.set(kind, obj);
    this.enqueueOrPark(objectKey(kind, obj.metadata.namespace, obj.metadata.name));
  }

  updated(kind: string, obj: ManagedObject, old: ManagedObject | undefined): void {
    const { refs, owners, siblings } = this.o;
    const key = objectKey(kind, obj.metadata.namespace, obj.metadata.name);
    // References come from the spec: status and metadata writes (most updates) leave them as they are.
    if (old?.metadata.generation !== obj.metadata.generation) this.indexReferences(kind, obj);
    if (needsReconcile(old, obj)) this.enqueue(key);
    // An owner that let go of an href (its href changed, it turned ObserveOnly): the claimants may adopt.
    if (kind !== "Account") for (const claimant of owners.set(kind, obj)) this.enqueue(claimant);
    // What waits for this one to go (DeletionBlocked) now says it is being deleted.
    if (!old?.metadata.deletionTimestamp && obj.metadata.deletionTimestamp)
      for (const target of deletingTargets(key, refs, this.o.store)) this.o.queue()?.add(target);
    const wasReady = isTrue(old?.status?.conditions, "Ready");
    const isReady = isTrue(obj.status?.conditions, "Ready");
    if ((isReady && !wasReady) || (isReady && old?.status?.href !== obj.status?.href)) {
      // An Account's dependents are woken by its credentials check (AccountController's
      // onVerified, in dependency order), which comes before this status: waking them again here
      // would run those at work a second time, on a cache that has not seen their own writes yet.
      // One still waiting for another reference (never recorded) is not reconciled only to park.
      if (kind !== "Account")
        for (const dependent of refs.dependents(key)) this.enqueueOrPark(dependent, true);
      // Siblings waiting for this one (a user's other roles for the observer grant) are
      // dependents woken by their reference's Ready in all but name: urgent too.
      for (const sibling of siblings.woken(key)) this.enqueue(sibling, true);
      // What holds it in the service and lists it in status (a route table its new route): look
      // again, soon rather than at once, so that the contents turning Ready about together (a
      // table's subnets and routes) cost it one look, and the dependents' creates go first.
      for (const target of refs.targets(key))
        if (this.holdsContents(target)) this.o.queue()?.addAfter(target, this.contentsLookMs(target, key));
    } else if (kind === "Account" && wasReady && !isReady) {
      // Credentials that stopped working (a Secret changed): every resource of the Account says so
      // now (DependencyNotReady, naming why), not at its next resync; none of them is touched.
      for (const dependent of refs.dependents(key)) this.enqueue(dependent);
    } else this.tellWaitingDependents(kind, key, old, obj);
  }

  /**
   * A resource that turned Stalled, or waits for something else now: the dependents waiting for it
   * say so at once (their message quotes its state), not at their next retry. Only those already
   * waiting, or not recorded yet: a Ready dependent keeps its state until its own next reconcile.
   */
  private tellWaitingDependents(
    kind: string,
    key: string,
    old: ManagedObject | undefined,
    obj: ManagedObject,
  ) {
    const { name } = obj.metadata;
    const now = blockedState(kind, name, obj);
    if (now === undefined || now === blockedState(kind, name, old)) return;
    for (const dependent of this.o.refs.dependents(key)) {
      const d = parseKey(dependent);
      const ready = getCondition(this.o.store.get(d.kind, d.namespace, d.name)?.status?.conditions, "Ready");
      // No Ready yet: a new dependent parked without a write while this one was on its way.
      if (!ready || (ready.status === "False" && ready.reason === Reason.DependencyNotReady))
        this.enqueue(dependent);
    }
  }

  /** How soon `target` looks at its contents after `ready`, one of them, turned Ready. */
  private contentsLookMs(target: string, ready: string): number {
    for (const dependent of this.o.refs.dependents(target)) {
      if (dependent === ready) continue;
      const d = parseKey(dependent);
      const obj = this.o.store.get(d.kind, d.namespace, d.name);
      if (obj && !obj.metadata.deletionTimestamp && !isTrue(obj.status?.conditions, "Ready"))
        return CONTENTS_LOOK_PENDING_MS;
    }
    return CONTENTS_LOOK_MS;
  }

  /** Whether the kind of `key` lists what its service object holds (ManagedKind.contents). */
  private holdsContents(key: string): boolean {
    const { kind } = parseKey(key);
    return this.o.kinds.some((k) => k.kind === kind && k.contents !== undefined);
  }

  deleted(kind: string, obj: ManagedObject): void {
    const { refs, siblings } = this.o;
    const key = objectKey(kind, obj.metadata.namespace, obj.metadata.name);
    const targets = refs.targets(key);
    refs.remove(key);
    for (const claimant of this.o.owners.remove(key)) this.enqueue(claimant);
    // Parents waiting for this dependent to go (DeletionBlocked) can proceed now.
    for (const t of targets) this.enqueue(t);
    for (const d of refs.dependents(key)) this.enqueue(d);
    for (const s of siblings.siblings(key)) this.enqueue(s);
    siblings.remove(key);
    this.enqueue(key);
  }

  private indexReferences(kind: string, obj: ManagedObject): void {
    const k = this.o.kinds.find((x) => x.kind === kind);
    if (!k) return;
    const parsed = k.schema.safeParse(obj.spec ?? {});
    if (!parsed.success) return;
    const spec = parsed.data as { accountRef: { name: string } };
    const { namespace } = obj.metadata;
    const group = k.siblings?.(spec);
    this.o.siblings.set(
      objectKey(kind, namespace, obj.metadata.name),
      group === undefined ? undefined : `${kind}\u0000${namespace}\u0000${group}`,
      k.leadsSiblings?.(spec) ?? true,
    );
    const key = objectKey(kind, namespace, obj.metadata.name);
    const keys = referenceKeys(namespace, spec.accountRef.name, k.references(spec));
    this.o.refs.set(key, keys.targets, keys.after);
    // A reference that closes a cycle: the other members (waiting for each other) report it now.
    const cycle = this.o.refs.cycleThrough(key);
    if (cycle) for (const member of cycle.slice(1, -1)) this.enqueue(member);
  }
}

/**
 * The annotations a user sets: a change of one (added, changed or removed) acts on an existing
 * object at once, as on a new one. The href annotation is not among them: the operator writes it
 * too (needsReconcile tells the two apart). create-pending is the operator's own.
 */
const USER_ANNOTATIONS = [
  Annotation.paused,
  Annotation.reconcileRequestedAt,
  Annotation.resyncInterval,
] as const;

/**
 * Event filter (controller-runtime's GenerationChanged + annotation predicates): our own
 * status and finalizer writes must not trigger another reconcile, or every reconcile
 * would cost a second observe call.
 */
export function needsReconcile(old: ManagedObject | undefined, obj: ManagedObject): boolean {
  if (!old) return true;
  if (old.metadata.generation !== obj.metadata.generation) return true;
  if (!old.metadata.deletionTimestamp && obj.metadata.deletionTimestamp) return true;
  const a = old.metadata.annotations ?? {};
  const b = obj.metadata.annotations ?? {};
  if (USER_ANNOTATIONS.some((name) => a[name] !== b[name])) return true;
  return handChangedHref(a, b, obj.status?.href);
}

/**
 * Whether an href annotation change is a user's: one set to what status does not know yet (an
 * adoption), or one removed (an adoption given up or an href refused: the object is created now;
 * one status holds: the annotation is written back). Not the operator recording a create's href,
 * which clears create-pending in the same write, nor an annotation catching up with status.
 */
function handChangedHref(
  a: Record<string, string>,
  b: Record<string, string>,
  statusHref: string | undefined,
): boolean {
  const before = a[Annotation.href];
  const after = b[Annotation.href];
  if (before === after) return false;
  if (after === undefined) return true;
  const recordedCreate =
    a[Annotation.createPending] !== undefined && b[Annotation.createPending] === undefined;
  return after !== statusHref && !recordedCreate;
}
