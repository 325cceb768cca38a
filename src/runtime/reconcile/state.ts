import type { Outcome, Reference } from "../sdk/index.ts";

/** What a reconcile ends with: an outcome to record, or "gone" once the finalizer is released. */
export type Ending = Outcome | "gone";

/** A phase that settled the reconcile: the phases after it do not run. */
export interface End {
  end: Ending;
}

/** Phase 1's answer for an object that goes on: is it being deleted, does it hold our finalizer. */
export interface Admitted {
  deleting: boolean;
  hasFinalizer: boolean;
}

/** The spec as validated, with what the object still needs before its first write to the service. */
export interface Validated {
  spec: Record<string, unknown>;
  references: Reference[];
  accountName: string;
  observeOnly: boolean;
  /** The finalizers to write before the first write to the service; undefined when none is missing. */
  withFinalizer: string[] | undefined;
}

/** The desired state, and the client that reaches the service for it. */
export interface Desired extends Validated {
  client: unknown;
  desired: unknown;
  /** After-create associations not applied yet, each `spec.<field>: <why>` (see Reference.afterCreate). */
  associations: string[];
}

/** What observing found: the external object, or none (`recreate`: the one at the href is gone). */
export interface Observed extends Desired {
  href: string | undefined;
  observed: unknown;
  recreate: boolean;
}

/** The external object exists: found, adopted or just created. */
export interface Existing extends Desired {
  href: string;
  observed: unknown;
  /** A replaced object the service does not let go of yet: said in the Ready message, tried again after `retryAfterMs`. */
  lingering?: { message: string; retryAfterMs: number };
}

/** What the reconciler of one kind remembers between runs, by queue key. */
export interface RunMemory {
  /** When each object the service still shows as not ready (e.g. a pending subnet) was first seen so. */
  notReadySince: Map<string, number>;
  /**
   * The href each object's create recorded in this process, until the informer cache shows it in
   * both the annotation and the status: a run that reads the cache between those two writes knows
   * the object as its own (no Adopted event, no lookup of a create that is no longer pending).
   * Kept with the object's uid: a new object of the same name is not the one that created it.
   */
  ownHrefs: Map<string, { uid: string | undefined; href: string }>;
  /** When each resource was first parked without a write while its references were on their way (resolve.ts). */
  parked: Map<string, number>;
  /**
   * The service object each resource being deleted had deleted by this process: a run that releases
   * it again (the first one's finalizer write conflicted) finds it gone, and that is no news.
   */
  deletedHrefs: Map<string, string>;
}

/** A new resource's references are all on their way to Ready (resolve.ts): park it, write nothing. */
export class AwaitingReferencesError extends Error {
  override name = "AwaitingReferencesError";
}

/** The Account has not been checked by this process yet: park the reconcile, write nothing. */
export class AccountPendingError extends Error {
  override name = "AccountPendingError";
}
