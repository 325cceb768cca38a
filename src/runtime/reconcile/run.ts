import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type AccountUse, cannotDelete } from "../account-use.ts";
import type { AnyManagedKind, ManagedObject, ManagedStatus, ObjectMeta, ResolvedReference } from "../kind.ts";
import type { ObjectRef } from "../kube.ts";
import { lazyChild } from "../logging.ts";
import { NameLookup } from "../lookup.ts";
import { Annotation, FINALIZER, objectKey } from "../names.ts";
import type { ReconcileOutcome, ReconcilerDeps } from "../reconciler.ts";
import { DependencyNotReadyError, EventReason, EventTypes } from "../result.ts";
import { converge } from "./converge.ts";
import { createIfMissing } from "./create.ts";
import { observeOrAdopt } from "./observe.ts";
import { record, recordFailure, report } from "./report.ts";
import { references } from "./resolve.ts";
import { AccountPendingError, type Ending, type RunMemory } from "./state.ts";
import { pausedOrDeleted, validated } from "./validate.ts";

/**
 * One reconcile of one object: holds the object as it changes and the status being built, and
 * runs the phases (one file each, beside this one) that read and change them.
 */
export class Run {
  /** True once this run removed the finalizer (the object is gone or about to be). */
  released = false;
  obj: ManagedObject;
  readonly kind: AnyManagedKind;
  readonly deps: ReconcilerDeps;
  readonly ref: ObjectRef;
  readonly key: string;
  readonly log: Logger;
  readonly status: ManagedStatus;
  readonly memory: RunMemory;
  /** The href of this run's create, until the annotation and status writes at its end record it. */
  unrecordedHref: string | undefined;
  private readonly emitted: { reason: EventReason; message: string }[] = [];
  private readonly fallbackNames = new NameLookup();

  constructor(kind: AnyManagedKind, obj: ManagedObject, deps: ReconcilerDeps, memory: RunMemory) {
    this.kind = kind;
    this.memory = memory;
    this.obj = obj;
    this.deps = deps;
    const { namespace, name } = obj.metadata;
    this.ref = { kind: kind.kind, plural: kind.plural, namespace, name };
    this.key = objectKey(kind.kind, namespace, name);
    this.status = structuredClone(obj.status ?? {});
    const href = this.annotations[Annotation.href] ?? obj.status?.href;
    this.log = lazyChild(deps.log, () => ({
      kind: kind.kind,
      namespace,
      name,
      href,
      reconcileId: randomUUID().slice(0, 8),
    }));
  }

  get annotations(): Record<string, string> {
    return this.obj.metadata.annotations ?? {};
  }

  get meta(): ObjectMeta {
    return this.obj.metadata;
  }

  /** The phases, then what they ended with, recorded once (status, conditions, events). */
  async execute(): Promise<ReconcileOutcome> {
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
    return record(this, ending, false);
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
      this.deps.events.emit(this.obj, this.kind.kind, EventTypes[e.reason], e.reason, e.message);
  }

  /** Records an event, emitted when the run's status is written; its type comes with the reason. */
  event(reason: EventReason, message: string): void {
    this.emitted.push({ reason, message });
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
    return found.client;
  }

  desiredContext(client: unknown, accountName: string, refs: Record<string, ResolvedReference>) {
    return {
      meta: this.meta,
      client,
      refs,
      log: this.log,
      account: `${this.meta.namespace}/${accountName}`,
      names: this.deps.names ?? this.fallbackNames,
    };
  }

  /** The kind's write-only values without undefined entries, or undefined when it has none. */
  writeOnlyValues(desired: unknown): Record<string, unknown> | undefined {
    const values = this.kind.writeOnly?.(desired);
    if (!values) return undefined;
    return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  }

  async removeFinalizer(): Promise<void> {
    const finalizers = (this.meta.finalizers ?? []).filter((f) => f !== FINALIZER);
    await this.patchMetadata({ finalizers }, true);
    this.released = true;
  }
}
