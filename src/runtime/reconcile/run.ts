import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { AuditAction, FieldChange } from "../audit/index.ts";
import type { ObjectRef } from "../client/index.ts";
import type {
  AnyManagedKind,
  LookupContext,
  ManagedObject,
  ManagedStatus,
  ObjectMeta,
  ResolvedReference,
} from "../sdk/index.ts";
import {
  type AccountUse,
  Annotation,
  cannotDelete,
  DependencyNotReadyError,
  EventReason,
  type EventType,
  EventTypes,
  FINALIZER,
  invalidHref,
  NameLookup,
  objectKey,
  selfLinkMismatch,
} from "../sdk/index.ts";
import { lazyChild } from "../telemetry/index.ts";
import { NOT_LISTED } from "./batched-reads.ts";
import type { Around, PhaseRun, Policy, ReadState } from "./context.ts";
import { converge } from "./converge.ts";
import { createIfMissing } from "./create.ts";
import { writeOnlyValues } from "./decide.ts";
import type { ReconcileOutcome, ReconcilerDeps } from "./deps.ts";
import { observeOrAdopt } from "./observe.ts";
import { record, recordFailure, report } from "./report.ts";
import { references } from "./resolve.ts";
import { resyncInterval } from "./resync-interval.ts";
import { RunAudit, type RunAuditTarget } from "./run-audit.ts";
import { AccountPendingError, type Ending, type RunMemory } from "./state.ts";
import { pausedOrDeleted, validated } from "./validate.ts";

/**
 * One reconcile of one object: holds the object as it changes and the status being built, and
 * runs the phases (one file each, beside this one) that read and change them. The phases see it
 * through the small interfaces of context.ts.
 */
export class Run implements PhaseRun {
  /** True once this run removed the finalizer (the object is gone or about to be). */
  released = false;
  /** A ConfigMap or Secret the spec reads changed since the last reconcile: a difference is an update, not drift. */
  sourcesChanged = false;
  obj: ManagedObject;
  readonly kind: AnyManagedKind;
  readonly around: Around;
  readonly policy: Policy;
  private readonly deps: ReconcilerDeps;
  readonly ref: ObjectRef;
  readonly key: string;
  readonly log: Logger;
  readonly status: ManagedStatus;
  readonly memory: RunMemory;
  /** The href of this run's create, until the annotation and status writes at its end record it. */
  unrecordedHref: string | undefined;
  /** Names this run in its log lines and in the audit trail's detail. */
  readonly reconcileId = randomUUID().slice(0, 8);
  /** The changes made to service objects, for the audit trail, handed over at the end. */
  private readonly audit: RunAudit;
  /** The Account and client of this run's service calls (see client()). */
  private account: { name: string; client: unknown } | undefined;
  private readonly emitted: { reason: EventReason; message: string; type: EventType }[] = [];
  private readonly fallbackNames = new NameLookup();

  constructor(kind: AnyManagedKind, obj: ManagedObject, deps: ReconcilerDeps, memory: RunMemory) {
    this.kind = kind;
    this.memory = memory;
    this.obj = obj;
    this.deps = deps;
    this.around = deps;
    this.policy = {
      dependencyRetryMs: deps.dependencyRetryMs,
      isTerminalApiError: deps.isTerminalApiError ?? (() => false),
      isOutcomeUnknown: deps.isOutcomeUnknown ?? (() => false),
      explainServiceError: deps.explainServiceError,
    };
    const { namespace, name } = obj.metadata;
    this.ref = { kind: kind.kind, plural: kind.plural, namespace, name };
    this.key = objectKey(kind.kind, namespace, name);
    this.status = structuredClone(obj.status ?? {});
    const { href: statusHref, auditEntryHref } = obj.status ?? {};
    const href = this.annotations[Annotation.href] ?? statusHref;
    this.audit = new RunAudit(
      deps.audit,
      statusHref && auditEntryHref ? { auditee: statusHref, entry: auditEntryHref } : undefined,
    );
    // The entry is the status's object's: gone with it (forgotten while the entry was being
    // recorded), or no longer this resource's object (the href annotation names another).
    if (auditEntryHref && (!statusHref || href !== statusHref)) this.status.auditEntryHref = undefined;
    this.log = lazyChild(deps.log, () => ({
      kind: kind.kind,
      namespace,
      name,
      href,
      reconcileId: this.reconcileId,
    }));
  }

  get annotations(): Record<string, string> {
    return this.obj.metadata.annotations ?? {};
  }

  get meta(): ObjectMeta {
    return this.obj.metadata;
  }

  /** The run; then, after its writes and whatever it ended with, its changes go to the audit trail. */
  async execute(): Promise<ReconcileOutcome> {
    try {
      return await this.settle();
    } finally {
      this.audit.submit(this.auditTarget());
    }
  }

  /** The phases, then what they ended with, recorded once (status, conditions, events). */
  private async settle(): Promise<ReconcileOutcome> {
    const requested = this.annotations[Annotation.reconcileRequestedAt];
    if (requested !== undefined) this.status.lastHandledReconcileAt = requested;
    let ending: Ending;
    try {
      ending = await this.phases();
    } catch (error) {
      return recordFailure(this, error);
    }
    if (ending === "gone") {
      this.flushEvents();
      return { outcome: "ready" };
    }
    const resync = ending.type === "ready" ? this.resyncIntervalMs() : undefined;
    const result = await record(this, ending, false);
    return resync === undefined || result.retry ? result : { ...result, requeueAfterMs: resync };
  }

  /** The object's own drift-check period (its annotation); a bad value is a Warning event and none. */
  private resyncIntervalMs(): number | undefined {
    const interval = resyncInterval(this.annotations[Annotation.resyncInterval]);
    if (interval === undefined) return undefined;
    if ("ms" in interval) return interval.ms;
    this.event(
      EventReason.ResyncIntervalInvalid,
      `${Annotation.resyncInterval}: ${interval.problem}; using the operator's resync period`,
    );
    return undefined;
  }

  /** The reconcile, in the order of the design's picture; a phase that settles it returns `{end}`. */
  private async phases(): Promise<Ending> {
    const admitted = await pausedOrDeleted(this);
    if ("end" in admitted) return admitted.end;
    const valid = await validated(this, admitted);
    if ("end" in valid) return valid.end;
    const desired = await references(this, valid);
    const found = await observeOrAdopt(this, desired);
    const existing = await createIfMissing(this, found);
    const converged = await converge(this, existing);
    if ("end" in converged) return converged.end;
    return report(this, converged);
  }

  flushEvents(): void {
    for (const e of this.emitted.splice(0))
      this.deps.events.emit(this.obj, this.kind.kind, e.type, e.reason, e.message);
  }

  /** Records an event, emitted when the run's status is written; its type comes with the reason unless given. */
  event(reason: EventReason, message: string, type: EventType = EventTypes[reason]): void {
    this.emitted.push({ reason, message, type });
    // A failed attempt is logged where it is handled (failure-log.ts: once per attempt, or once per
    // cause many resources share); its event would say it again, at every retry.
    if (reason === EventReason.ReconcileError) this.log.debug({ event: reason }, message);
    else this.log.info({ event: reason }, message);
  }

  async patchMetadata(
    patch: { annotations?: Record<string, string | null>; finalizers?: string[] },
    optimistic: boolean,
  ): Promise<void> {
    this.obj = await this.deps.kube.patchMetadata(
      this.ref,
      patch,
      optimistic ? this.meta.resourceVersion : undefined,
    );
  }

  async patchStatus(patch: Record<string, unknown>): Promise<void> {
    this.obj = await this.deps.kube.patchStatus(this.ref, patch);
  }

  patchUnread(
    patch: { metadata: { annotations: Record<string, string | null> } } | { status: Record<string, unknown> },
  ): Promise<void> {
    return this.deps.kube.patchUnread(this.ref, patch);
  }

  now(): number {
    return this.deps.clock.now();
  }

  /**
   * The service object at `href` (undefined: it does not exist): read through the kind's index
   * together with the other objects read at about the same time (BatchedReads), else shown on its
   * own (a kind without an index, a scope not known, an object the index does not list).
   * `joined` is called once the read has joined its batch (or goes on its own): see expectRead.
   */
  async observe(state: ReadState, href: string, joined: () => void = () => {}) {
    const batch = this.batchOf(state);
    // A look at an object the service showed not ready: the looks at the others fall on the same
    // grid of the clock (notReadyPollMs), so they share a call without waiting out a window.
    const soon = this.memory.notReadySince.has(this.key);
    const read =
      batch && this.deps.batchedReads!.read(this.kind, batch.account, state.client, batch.scope, href, soon);
    joined();
    const found = read && (await read);
    if (found !== undefined && found !== NOT_LISTED) return found;
    return this.kind.observe(state.client, href, state.desired);
  }

  /**
   * Before a create: its read will follow (BatchedReads.expect), so that the batch it joins is
   * read once every create in flight with it has answered. Returns what observe takes as `joined`.
   */
  expectRead(state: ReadState): () => void {
    const batch = this.batchOf(state);
    return batch ? this.deps.batchedReads!.expect(this.kind, batch.account, batch.scope) : () => {};
  }

  /** Where a read of this object is batched: its Account and the index scope; none without an index. */
  private batchOf(state: ReadState): { account: string; scope: string } | undefined {
    const index = this.kind.index;
    if (!index || !this.deps.batchedReads) return undefined;
    const scope = index.scope(state.spec, this.status) ?? index.scopeOfDesired?.(state.desired);
    return scope === undefined ? undefined : { account: this.accountId(state.accountName), scope };
  }

  /**
   * For a lookup (ManagedKind.lookup): the kind's index listed through the batched reads, with
   * the Account of this run's client. None without batched reads, an index, or an Account.
   */
  lookupContext(client: unknown): LookupContext<unknown> | undefined {
    const { index } = this.kind;
    const batched = this.deps.batchedReads;
    const account = this.account;
    if (!index || !batched || !account || account.client !== client) return undefined;
    const key = this.accountId(account.name);
    return { listIndex: (scope) => batched.list(this.kind, key, client, scope) };
  }

  /** The href this resource stands for: its annotation, its status, or what its create recorded here. */
  currentHref(): string | undefined {
    return this.annotations[Annotation.href] || this.status.href || this.ownHref() || undefined;
  }

  /** The href this process recorded for this object's create, while the cache may not show it yet. */
  ownHref(): string | undefined {
    const own = this.memory.ownHrefs.get(this.key);
    return own !== undefined && own.uid === this.meta.uid ? own.href : undefined;
  }

  /** Remembers the href this run's create or adoption recorded (see RunMemory.ownHrefs). */
  rememberOwnHref(href: string): void {
    this.memory.ownHrefs.set(this.key, { uid: this.meta.uid, href });
  }

  /** The status no longer speaks of an external object (it is gone, or being replaced). */
  forgetExternal(): void {
    this.memory.ownHrefs.delete(this.key);
    this.status.href = undefined;
    this.status.atProvider = undefined;
    this.status.applied = undefined;
    this.status.adopted = undefined;
    this.status.auditEntryHref = undefined;
    this.status.lastDrift = undefined;
  }

  client(accountName: string, use: AccountUse = "write"): unknown {
    const found = this.deps.accounts.get(this.meta.namespace, accountName, use);
    if ("pending" in found && found.pending) throw new AccountPendingError();
    if ("notReady" in found) {
      if (use === "delete") throw cannotDelete(accountName, found, this.currentHref());
      throw new DependencyNotReadyError(
        `spec.accountRef: Account ${accountName} is not ready: ${found.notReady}`,
        this.deps.dependencyRetryMs,
      );
    }
    this.account = { name: accountName, client: found.client };
    return found.client;
  }

  /** A spec field whose values never reach the audit trail (one whose value is read from a ConfigMap or Secret). */
  mask(field: string): void {
    this.audit.mask(field);
  }

  /** A change this run made to a service object (the facts of its Created/Updated/... event). */
  audited(
    action: AuditAction,
    auditee: string,
    fields: FieldChange[],
    desired?: unknown,
    note?: string,
  ): void {
    const masked = desired === undefined ? undefined : Object.keys(this.kind.writeOnly?.(desired) ?? {});
    this.audit.add({ action, auditee, fields, at: this.now(), note, masked });
  }

  /** The service object was gone already when its deletion came (deleted with what held it, not by this process). */
  auditedGone(auditee: string): void {
    if (!this.deletedEarlier(auditee)) this.audit.addFoundGone(auditee, this.now());
  }

  deletedEarlier(href: string): boolean {
    return this.memory.deletedHrefs.get(this.key) === href;
  }

  /** Deletes a service object; its audit entry is made sure of first (see AuditSink.beforeDelete). */
  async deleteInService(
    client: unknown,
    href: string,
    observed: unknown,
    audit: { action: "deleted" | "replaced"; fields?: FieldChange[]; note?: string; desired?: unknown },
  ): Promise<void> {
    // Never delete what the service shows as another object than `href` names.
    const mismatch = selfLinkMismatch(href, this.kind.hrefOf(observed));
    if (mismatch) throw invalidHref(href, mismatch);
    const batch = this.audit.batch(this.auditTarget());
    if (batch) await this.deps.audit?.beforeDelete(batch, href);
    await this.kind.delete(client, href, observed);
    if (this.obj.metadata.deletionTimestamp) this.memory.deletedHrefs.set(this.key, href);
    this.audited(audit.action, href, audit.fields ?? [], audit.desired, audit.note);
  }

  private auditTarget(): RunAuditTarget {
    const { ref, reconcileId, account } = this;
    return { ref, uid: this.meta.uid, reconcileId, account };
  }

  /** The Account named in this resource's namespace, as `namespace/name`. */
  private accountId(accountName: string): string {
    return `${this.meta.namespace}/${accountName}`;
  }

  desiredContext(client: unknown, accountName: string, refs: Record<string, ResolvedReference>) {
    return {
      meta: this.meta,
      client,
      refs,
      log: this.log,
      account: this.accountId(accountName),
      names: this.deps.names ?? this.fallbackNames,
    };
  }

  /** The kind's write-only values without undefined entries, or undefined when it has none. */
  writeOnlyValues(desired: unknown): Record<string, unknown> | undefined {
    return writeOnlyValues(this.kind, desired);
  }

  /** Once the run's audit line is written (or its failure counted): a deletion is done only then. */
  async removeFinalizer(): Promise<void> {
    await this.audit.written(this.auditTarget());
    const finalizers = (this.meta.finalizers ?? []).filter((f) => f !== FINALIZER);
    await this.patchMetadata({ finalizers }, true);
    this.released = true;
  }
}
