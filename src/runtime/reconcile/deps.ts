import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import type { AuditSink } from "../audit/index.ts";
import type { EventSink, KubeWriter, ObjectStore } from "../client/index.ts";
import type { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type {
  AccountUse,
  AnyManagedKind,
  KeySources,
  NameLookup,
  NoClient,
  Outcome,
  Result,
} from "../sdk/index.ts";
import type { ExplainServiceError, ProblemLog } from "../telemetry/index.ts";
import type { BatchedReads } from "./batched-reads.ts";
import type { LinkCheck } from "./link-check.ts";

/**
 * What the managed reconciler is given (ReconcilerDeps) and what it answers (ReconcileOutcome):
 * the types the operator's wiring and the reconciler share, apart from the reconciler itself.
 */

/** Service clients per Account, kept by the Account controller. */
export interface AccountClients {
  /**
   * The client for the use asked (default `write`, see AccountUse), or why there is none;
   * `pending` while this process has not finished its first check of the credentials (it wakes
   * the dependents when it has).
   */
  get(namespace: string, name: string, use?: AccountUse): { client: unknown } | NoClient;
}

/** Observations made by the index-based observer, consumed by the next reconcile of the object. */
export interface ObservationCache {
  take(key: string, href: string): unknown | undefined;
  /** The reconcile wrote the object to the service (observations read before are stale). */
  wrote(key: string): void;
}

export interface ReconcilerMetrics {
  reconciled(kind: string, result: string, seconds: number): void;
}

export interface ReconcilerDeps {
  store: ObjectStore;
  kube: KubeWriter;
  accounts: AccountClients;
  refs: ReferenceIndex;
  /** Who manages each href (share one per operator: one owner across namespaces and kinds). */
  owners: OwnerIndex;
  events: EventSink;
  clock: Clock;
  log: Logger;
  observations?: ObservationCache;
  /** Reads of objects by href through their kind's index, batched (share one per operator); none: a show each. */
  batchedReads?: BatchedReads;
  metrics?: ReconcilerMetrics;
  /** True for a service client error that only a spec change can fix (e.g. ApiError kind `invalid`). */
  isTerminalApiError?: (error: unknown) => boolean;
  /** True for a create whose outcome is unknown (the object may exist). */
  isOutcomeUnknown?: (error: unknown) => boolean;
  /** Shared name lookups (one per operator). */
  names?: NameLookup;
  /** Default period for re-checking waits on things outside the cluster. */
  dependencyRetryMs?: number;
  /** Checks of the hrefs a create links to (share one per operator: its cache spans kinds). */
  links?: LinkCheck;
  /** The audit trail in the service of the changes made (audit.ts); none: no audit calls. */
  audit?: AuditSink;
  /** Failures many resources share (the service throttling, unreachable): one line per cause. */
  problems?: ProblemLog;
  /** Says what a service failure is about (service-hints.ts); transient ones go to `problems`. */
  explainServiceError?: ExplainServiceError;
  /** Reads the ConfigMap and Secret keys specs name (share one per operator); none: nothing is read. */
  keySources?: KeySources;
  /** The kinds the operator serves, by name: what a dependent's references are (DeletionBlocked). */
  kindOf?: (kind: string) => AnyManagedKind | undefined;
}

/** What a reconcile ended with; the controller requeues accordingly. */
export interface ReconcileOutcome extends Result {
  /** Retry with backoff (transient error or conflict). */
  retry?: boolean;
  /** The object is no longer in the cache: whatever is kept or queued for its key can go. */
  gone?: boolean;
  outcome?: Outcome["type"];
}
