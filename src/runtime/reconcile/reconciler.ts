import { type Footprint, keyed } from "../../lib/index.ts";
import type { AnyManagedKind, ManagedObject } from "../sdk/index.ts";
import { Annotation, DEPENDENCY_RETRY_MS, objectKey } from "../sdk/index.ts";
import type { ReconcileOutcome, ReconcilerDeps } from "./deps.ts";
import { LinkCheck } from "./link-check.ts";
import { Run } from "./run.ts";
import type { RunMemory } from "./state.ts";

export type {
  AccountClients,
  ObservationCache,
  ReconcileOutcome,
  ReconcilerDeps,
  ReconcilerMetrics,
} from "./deps.ts";

/**
 * The generic managed reconciler (Crossplane's managed.Reconciler): finalizer,
 * deletion policy, paused/requested-at annotations, spec validation, reference
 * resolution, observe/create/update/delete through the kind module, no-duplicate
 * creates, status and conditions written once and only when they change. One reconcile is a
 * `Run` (reconcile/run.ts), whose phases follow the design's picture, one file each.
 */
export class ManagedReconciler {
  readonly kind: AnyManagedKind;
  private readonly deps: ReconcilerDeps;
  /**
   * Objects whose finalizer this reconciler removed (by key, with their uid and when): until the
   * informer delivers the deletion, its cache still shows them, and a reconcile queued meanwhile
   * must not observe (and call the service about) an object that is already gone. Dropped when the
   * deletion arrives (forget); the age limit is a safety net for a deletion never delivered.
   */
  private readonly released = new Map<string, { uid: string; at: number }>();
  private readonly memory: RunMemory = {
    notReadySince: new Map(),
    ownHrefs: new Map(),
    parked: new Map(),
    deletedHrefs: new Map(),
  };

  constructor(kind: AnyManagedKind, deps: ReconcilerDeps) {
    this.kind = kind;
    this.deps = deps.links ? deps : { ...deps, links: new LinkCheck({ now: () => deps.clock.now() }) };
  }

  async reconcile(namespace: string, name: string): Promise<ReconcileOutcome> {
    const started = this.deps.clock.now();
    const object = this.deps.store.get(this.kind.kind, namespace, name);
    if (!object) {
      const key = objectKey(this.kind.kind, namespace, name);
      this.deps.problems?.forget(key);
      this.deps.refs.remove(key);
      this.forget(key);
      return { gone: true };
    }
    const uid = object.metadata.uid;
    const key = objectKey(this.kind.kind, namespace, name);
    if (uid !== undefined && object.metadata.deletionTimestamp && this.released.get(key)?.uid === uid)
      return {};
    this.forgetCaughtUp(object);
    const run = new Run(this.kind, object, this.deps, this.memory);
    const result = await run.execute();
    if (run.released && uid !== undefined) this.remember(key, uid);
    // A resource that failed of a cause many share (a throttling service) clears its part of it.
    const problems = this.deps.problems;
    if (problems && problems.open > 0 && result.outcome !== "error") problems.succeeded(run.key);
    this.deps.metrics?.reconciled(
      this.kind.kind,
      result.outcome ?? (result.retry ? "error" : "ok"),
      (this.deps.clock.now() - started) / 1000,
    );
    return result;
  }

  /**
   * An own href the cache now shows in both places, or one of an earlier object of that name, is
   * forgotten. Called on each informer update too: an object not reconciled again for long would
   * otherwise keep its entry until then.
   */
  forgetCaughtUp(object: ManagedObject): void {
    const key = objectKey(this.kind.kind, object.metadata.namespace, object.metadata.name);
    const own = this.memory.ownHrefs.get(key);
    if (own === undefined) return;
    const href = object.status?.href;
    const caughtUp = href !== undefined && href === object.metadata.annotations?.[Annotation.href];
    if (caughtUp || own.uid !== object.metadata.uid) this.memory.ownHrefs.delete(key);
  }

  /**
   * The resource is left to wait for its references' Ready without a reconcile (InformerEvents
   * enqueueOrPark): its wait counts from now, as if a reconcile had parked it (resolve.ts). How
   * long until its wait is recorded anyway.
   */
  parkAhead(key: string): number {
    if (!this.memory.parked.has(key)) this.memory.parked.set(key, this.deps.clock.now());
    return this.deps.dependencyRetryMs ?? DEPENDENCY_RETRY_MS;
  }

  /** The object is gone from the cache: nothing kept for it between runs is needed any more. */
  forget(key: string): void {
    this.deps.keySources?.forget(key);
    this.memory.notReadySince.delete(key);
    this.memory.ownHrefs.delete(key);
    this.memory.parked.delete(key);
    this.memory.deletedHrefs.delete(key);
    this.released.delete(key);
  }

  /** The per-object maps this reconciler keeps (see footprint.ts). */
  footprint(): Footprint {
    return {
      "reconciler.notReadySince": keyed(this.memory.notReadySince),
      "reconciler.ownHrefs": keyed(this.memory.ownHrefs),
      "reconciler.parked": keyed(this.memory.parked),
      "reconciler.deletedHrefs": keyed(this.memory.deletedHrefs),
      "reconciler.released": keyed(this.released),
    };
  }

  private remember(key: string, uid: string): void {
    const now = this.deps.clock.now();
    this.released.delete(key);
    this.released.set(key, { uid, at: now });
    // Insertion order is time order: drop what the informer has long caught up with.
    for (const [old, entry] of this.released) {
      if (now - entry.at < 10 * 60_000) break;
      this.released.delete(old);
    }
  }
}
