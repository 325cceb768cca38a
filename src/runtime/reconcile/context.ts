import type { Logger } from "pino";
import type { AuditAction, FieldChange } from "../audit/index.ts";
import type { ObjectRef, ObjectStore } from "../client/index.ts";
import type { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type {
  AccountUse,
  AnyManagedKind,
  DesiredContext,
  EventReason,
  EventType,
  KeySources,
  LookupContext,
  ManagedObject,
  ManagedStatus,
  ObjectMeta,
  ResolvedReference,
} from "../sdk/index.ts";
import type { ExplainServiceError, ProblemLog } from "../telemetry/index.ts";
import type { ObservationCache } from "./deps.ts";
import type { LinkCheck } from "./link-check.ts";
import type { Desired, RunMemory } from "./state.ts";

/**
 * What the phases of one reconcile work with, as a few small interfaces: the custom resource
 * (Subject), what the run says of it (Report), the service object it stands for (Identity), the
 * service (ServiceAccess), and what the run reads beside its object (Around) under its rules
 * (Policy). `Run` (run.ts) is all of them; each phase takes them as types, so no phase imports
 * the run, and the run imports the phases.
 */

/** The custom resource being reconciled, as it changes, and the writes to it. */
export interface Subject {
  readonly key: string;
  readonly ref: ObjectRef;
  readonly obj: ManagedObject;
  readonly meta: ObjectMeta;
  readonly annotations: Record<string, string>;
  patchMetadata(
    patch: { annotations?: Record<string, string | null>; finalizers?: string[] },
    optimistic: boolean,
  ): Promise<void>;
  /** A status write of its own, ahead of the one the run ends with (an href, a replacement begun). */
  patchStatus(patch: Record<string, unknown>): Promise<void>;
  /** The run's last writes: a patch whose answer is not read (the object stays as it was). */
  patchUnread(
    patch: { metadata: { annotations: Record<string, string | null> } } | { status: Record<string, unknown> },
  ): Promise<void>;
  removeFinalizer(): Promise<void>;
}

/** What the run says of the resource: the status it ends with, its Events, the audit trail, its log. */
export interface Report {
  readonly status: ManagedStatus;
  readonly log: Logger;
  /** Records an Event, emitted when the run's status is written; its type comes with the reason unless given. */
  event(reason: EventReason, message: string, type?: EventType): void;
  flushEvents(): void;
  /** A change this run made to a service object (the facts of its Created/Updated/... event). */
  audited(
    action: AuditAction,
    auditee: string,
    fields: FieldChange[],
    desired?: unknown,
    note?: string,
  ): void;
  /** The service object was gone already when its deletion came: the trail says so, in the entry it has. */
  auditedGone(auditee: string): void;
  /** This process deleted `href` while deleting this resource (a release that conflicted is running again). */
  deletedEarlier(href: string): boolean;
  /** A spec field whose values never reach the audit trail (one read from a ConfigMap or Secret). */
  mask(field: string): void;
  /** The kind's write-only values without undefined entries, or undefined when it has none. */
  writeOnlyValues(desired: unknown): Record<string, unknown> | undefined;
  now(): number;
}

/** Which service object the resource stands for, across the run's writes. */
export interface Identity {
  /** The href of this run's create, until the annotation and status writes at its end record it. */
  unrecordedHref: string | undefined;
  /** A ConfigMap or Secret the spec reads changed since the last reconcile: a difference is an update, not drift. */
  sourcesChanged: boolean;
  /** The href this resource stands for: its annotation, its status, or what its create recorded here. */
  currentHref(): string | undefined;
  /** The href this process recorded for this object's create, while the cache may not show it yet. */
  ownHref(): string | undefined;
  rememberOwnHref(href: string): void;
  /** The status no longer speaks of an external object (it is gone, or being replaced). */
  forgetExternal(): void;
}

/** The service, as this run reaches it. */
export interface ServiceAccess {
  /** The Account's client for this use; throws the wait (or the deletion's block) when there is none. */
  client(accountName: string, use?: AccountUse): unknown;
  /** The service object at `href` (undefined: none), read with others of its kind where it can be. */
  observe(state: ReadState, href: string, joined?: () => void): Promise<unknown>;
  /** Before a create: the read that follows joins a batch once the creates in flight have answered. */
  expectRead(state: ReadState): () => void;
  lookupContext(client: unknown): LookupContext<unknown> | undefined;
  /** Deletes a service object, its audit entry made sure of first; never one shown under another self link. */
  deleteInService(
    client: unknown,
    href: string,
    observed: unknown,
    audit: { action: "deleted" | "replaced"; fields?: FieldChange[]; note?: string; desired?: unknown },
  ): Promise<void>;
  desiredContext(
    client: unknown,
    accountName: string,
    refs: Record<string, ResolvedReference>,
  ): DesiredContext<unknown>;
}

/** What reading the object needs: its spec and desired state (the index scope), Account and client. */
export type ReadState = Pick<Desired, "spec" | "client" | "desired" | "accountName">;

/** What the run reads beside its own object: the cache, the cross-object indexes, shared reads. */
export interface Around {
  store: ObjectStore;
  refs: ReferenceIndex;
  /** Who manages each href: one owner across namespaces and kinds. */
  owners: OwnerIndex;
  /** Observations a resync made, taken by the next reconcile of their object. */
  observations?: ObservationCache;
  /** Checks of the hrefs a create links to. */
  links?: LinkCheck;
  /** The ConfigMap and Secret keys specs name. */
  keySources?: KeySources;
  /** Failures many resources share: one line per cause. */
  problems?: ProblemLog;
  /** The kinds the operator serves, by name: what a dependent's references are (DeletionBlocked). */
  kindOf?: (kind: string) => AnyManagedKind | undefined;
}

/** How long the run waits on what lies outside the cluster, and which failures are final. */
export interface Policy {
  /** How long a wait on something outside the cluster lasts before a look again (unset: each wait's default). */
  dependencyRetryMs?: number;
  /** A service client error only a spec change can fix. */
  isTerminalApiError(error: unknown): boolean;
  /** A create whose outcome is unknown (the object may exist). */
  isOutcomeUnknown(error: unknown): boolean;
  /** What a service failure is about (service-hints.ts). */
  explainServiceError?: ExplainServiceError;
}

/** One reconcile of one object, as its phases see it. */
export interface PhaseRun extends Subject, Report, Identity, ServiceAccess {
  readonly kind: AnyManagedKind;
  /** What the reconciler of the kind remembers between runs. */
  readonly memory: RunMemory;
  readonly around: Around;
  readonly policy: Policy;
}
