import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { z } from "zod";
import { type AccountUse, cannotDelete, type NoClient } from "./account-use.ts";
import { blockedMessage, blockersOf } from "./blockers.ts";
import type { Clock } from "./clock.ts";
import { isTrue } from "./conditions.ts";
import type { EventSink, EventType } from "./events.ts";
import type {
  AnyManagedKind,
  FieldDiff,
  ManagedObject,
  ManagedStatus,
  ObjectMeta,
  ResolvedReference,
} from "./kind.ts";
import {
  ConflictError,
  deepEqual,
  GoneError,
  type KubeWriter,
  mergePatch,
  type ObjectRef,
  type ObjectStore,
  withoutNulls,
} from "./kube.ts";
import { LinkCheck } from "./links.ts";
import { lazyChild } from "./logging.ts";
import { NameLookup } from "./lookup.ts";
import { Annotation, FINALIZER, objectKey } from "./names.ts";
import { conditionsFor, type Outcome, outcomeOf } from "./outcome.ts";
import type { OwnerIndex } from "./owners.ts";
import { accountKey, type ReferenceIndex } from "./references.ts";
import {
  DeletionBlockedError,
  DependencyNotReadyError,
  EventReason,
  InvalidSpecError,
  Reason,
  type Result,
  terminal,
  WaitError,
} from "./result.ts";

/** The Account has not been checked by this process yet: park the reconcile, write nothing. */
class AccountPendingError extends Error {
  override name = "AccountPendingError";
}

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
}

/** What a reconcile ended with; the controller requeues accordingly. */
export interface ReconcileOutcome extends Result {
  /** Retry with backoff (transient error or conflict). */
  retry?: boolean;
  outcome?: Outcome["type"];
}

/**
 * The generic managed reconciler (Crossplane's managed.Reconciler): finalizer,
 * deletion policy, paused/requested-at annotations, spec validation, reference
 * resolution, observe/create/update/delete through the kind module, no-duplicate
 * creates, status and conditions written once and only when they change.
 */
export class ManagedReconciler {
  readonly kind: AnyManagedKind;
  private readonly deps: ReconcilerDeps;
  /**
   * Uids whose finalizer this reconciler removed, with when: until the informer delivers the
   * deletion, its cache still shows them, and a reconcile queued meanwhile must not observe
   * (and call the service about) an object that is already gone.
   */
  private readonly released = new Map<string, number>();
  /** When each object the service still shows as not ready (e.g. a pending subnet) was first seen so. */
  private readonly notReadySince = new Map<string, number>();

  constructor(kind: AnyManagedKind, deps: ReconcilerDeps) {
    this.kind = kind;
    this.deps = deps.links ? deps : { ...deps, links: new LinkCheck({ now: () => deps.clock.now() }) };
  }

  async reconcile(namespace: string, name: string): Promise<ReconcileOutcome> {
    const started = this.deps.clock.now();
    const object = this.deps.store.get(this.kind.kind, namespace, name);
    if (!object) {
      const key = objectKey(this.kind.kind, namespace, name);
      this.deps.refs.remove(key);
      this.notReadySince.delete(key);
      return {};
    }
    const uid = object.metadata.uid;
    if (uid !== undefined && object.metadata.deletionTimestamp && this.released.has(uid)) return {};
    const run = new Run(this.kind, object, this.deps, this.notReadySince);
    const result = await run.execute();
    if (run.released && uid !== undefined) this.remember(uid);
    this.deps.metrics?.reconciled(
      this.kind.kind,
      result.outcome ?? (result.retry ? "error" : "ok"),
      (this.deps.clock.now() - started) / 1000,
    );
    return result;
  }

  private remember(uid: string): void {
    const now = this.deps.clock.now();
    this.released.set(uid, now);
    // Insertion order is time order: drop what the informer has long caught up with.
    for (const [old, at] of this.released) {
      if (now - at < 10 * 60_000) break;
      this.released.delete(old);
    }
  }
}

/** Parses a spec with the kind's zod schema; a failure is InvalidSpec naming every field. */
export function parseSpec<S>(schema: z.ZodType<S>, spec: unknown): S {
  const result = schema.safeParse(spec ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0]!;
  const field = first.path.map(String).join(".") || "(root)";
  const rest = issues.slice(1).map((i) => `spec.${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
  throw new InvalidSpecError(field, [first.message, ...rest].join("; "));
}

/** One reconcile of one object: holds the object as it changes and the status being built. */
class Run {
  /** True once this run removed the finalizer (the object is gone or about to be). */
  released = false;
  private obj: ManagedObject;
  private readonly kind: AnyManagedKind;
  private readonly deps: ReconcilerDeps;
  private readonly ref: ObjectRef;
  private readonly key: string;
  private readonly log: Logger;
  private readonly status: ManagedStatus;
  private readonly emitted: { type: EventType; reason: string; message: string }[] = [];
  private readonly notReadySince: Map<string, number>;
  /** The href of this run's create, until the annotation and status writes at its end record it. */
  private unrecordedHref: string | undefined;

  constructor(
    kind: AnyManagedKind,
    obj: ManagedObject,
    deps: ReconcilerDeps,
    notReadySince: Map<string, number>,
  ) {
    this.kind = kind;
    this.notReadySince = notReadySince;
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

  private get annotations(): Record<string, string> {
    return this.obj.metadata.annotations ?? {};
  }

  private get meta(): ObjectMeta {
    return this.obj.metadata;
  }

  async execute(): Promise<ReconcileOutcome> {
    let outcome: Outcome;
    let requeueAfterMs: number | undefined;
    let retry = false;
    const requested = this.annotations[Annotation.reconcileRequestedAt];
    if (requested !== undefined) this.status.lastHandledReconcileAt = requested;
    try {
      const r = await this.steps();
      if (r === "gone") {
        this.flushEvents();
        return { outcome: "ready" };
      }
      outcome = r;
    } catch (error) {
      if (error instanceof ConflictError) {
        this.log.debug("conflict writing metadata; retrying with the latest object");
        await this.recordUnrecordedHref();
        return { retry: true, outcome: "error" };
      }
      if (error instanceof AccountPendingError) {
        // Not a state worth recording: after an operator restart every resource would flip to
        // Ready=False for the moment the Account takes to verify. The Account wakes it.
        this.log.debug("waiting for the Account's first credentials check");
        return { requeueAfterMs: this.deps.dependencyRetryMs, outcome: "waiting" };
      }
      if (error instanceof GoneError) return {};
      outcome = outcomeOf(error, this.deps.isTerminalApiError ?? (() => false));
      if (outcome.type === "error") {
        retry = true;
        this.log.warn({ err: error }, "reconcile failed; will retry");
      } else {
        this.log.info(
          { reason: "reason" in outcome ? outcome.reason : undefined },
          outcome.type === "terminal" ? "stalled" : "waiting",
        );
      }
    }
    if ("requeueAfterMs" in outcome) requeueAfterMs = outcome.requeueAfterMs;
    this.eventsForOutcome(outcome);
    // A create's href: the annotation (which clears create-pending), then the status, so that
    // Ready is never seen before the annotation. A failed annotation write does not keep the
    // status from being written; create-pending then still stands (a lookup, not a second create).
    let notRecorded: unknown;
    if (this.unrecordedHref !== undefined) {
      await this.deps.kube
        .patchUnread(this.ref, {
          metadata: {
            annotations: { [Annotation.href]: this.unrecordedHref, [Annotation.createPending]: null },
          },
        })
        .catch((error: unknown) => {
          if (!(error instanceof GoneError)) notRecorded = error;
        });
    }
    await this.writeStatus(outcome);
    this.flushEvents();
    if (notRecorded !== undefined) {
      this.log.warn({ err: notRecorded }, "could not write the href annotation; will retry");
      return { retry: true, outcome: outcome.type };
    }
    return { requeueAfterMs, retry, outcome: outcome.type };
  }

  private flushEvents(): void {
    for (const e of this.emitted.splice(0))
      this.deps.events.emit(this.obj, this.kind.kind, e.type, e.reason, e.message);
  }

  private event(type: EventType, reason: string, message: string): void {
    this.emitted.push({ type, reason, message });
    this.log.info({ event: reason }, message);
  }

  private eventsForOutcome(outcome: Outcome): void {
    const before = this.obj.status?.conditions;
    if (outcome.type === "terminal") {
      const wasStalled =
        isTrue(before, "Stalled") && before?.find((c) => c.type === "Stalled")?.message === outcome.message;
      if (!wasStalled) {
        this.event(
          "Warning",
          outcome.reason === Reason.InvalidSpec ? EventReason.InvalidSpec : EventReason.Stalled,
          outcome.message,
        );
      }
    } else if (outcome.type === "error") {
      this.event("Warning", EventReason.ReconcileError, outcome.message);
    } else if (outcome.type === "waiting") {
      const ready = before?.find((c) => c.type === "Ready");
      if (ready?.reason !== outcome.reason || ready.message !== outcome.message) {
        this.event("Normal", outcome.reason, outcome.message);
      }
    }
  }

  private async writeStatus(outcome: Outcome): Promise<void> {
    const now = new Date(this.deps.clock.now());
    this.status.observedGeneration = this.meta.generation;
    this.status.conditions = conditionsFor(outcome, this.status.conditions ?? [], this.meta.generation, now);
    const patch = mergePatch(this.obj.status ?? {}, this.status);
    if (patch === undefined) return;
    try {
      // The run's last writes: what the apiserver answers is not read (this.obj stays as it was).
      await this.deps.kube.patchUnread(this.ref, { status: patch as Record<string, unknown> });
    } catch (error) {
      if (error instanceof GoneError) return;
      throw error;
    }
  }

  private async patchMetadata(
    patch: { annotations?: Record<string, string | null>; finalizers?: string[] },
    optimistic: boolean,
  ): Promise<void> {
    this.obj = await this.deps.kube.patchMetadata(
      this.ref,
      patch,
      optimistic ? this.meta.resourceVersion : undefined,
    );
  }

  private async steps(): Promise<Outcome | "gone"> {
    const deleting = Boolean(this.meta.deletionTimestamp);
    const hasFinalizer = (this.meta.finalizers ?? []).includes(FINALIZER);
    if (this.annotations[Annotation.paused] === "true") {
      if (deleting && hasFinalizer) {
        // Paused: the external object is left alone, the custom resource may go.
        await this.removeFinalizer();
        return "gone";
      }
      return { type: "paused" };
    }
    if (deleting && !hasFinalizer) return "gone";

    let spec: Record<string, unknown>;
    try {
      spec = parseSpec(this.kind.schema, this.obj.spec) as Record<string, unknown>;
    } catch (error) {
      if (deleting) {
        // An invalid spec must not keep an object from being deleted: nothing was created from it.
        if (!this.currentHref()) {
          await this.removeFinalizer();
          return "gone";
        }
      }
      throw error;
    }
    const references = this.kind.references(spec);
    const accountName = (spec.accountRef as { name: string }).name;
    this.deps.refs.set(this.key, [
      accountKey(this.meta.namespace, accountName),
      ...references.map((r) => objectKey(r.kind, this.meta.namespace, r.name)),
    ]);

    if (deleting) return this.deleteSteps(spec, accountName);

    this.kind.validate?.(spec, this.meta);
    const observeOnly = spec.managementPolicy === "ObserveOnly";
    // Before the finalizer and any service call: a resource that does not own its href writes nothing.
    if (!observeOnly) this.deps.owners.require(this.kind.kind, this.obj);
    const client = this.client(accountName);
    const refs = this.resolve(references);
    const desired = await this.kind.desired(spec, this.desiredContext(client, accountName, refs));

    let href = this.currentHref();
    let observed: unknown;
    let recreate = false;
    // The finalizer goes on before any write to the service: with the create-pending
    // annotation in one patch when creating, on its own otherwise.
    const withFinalizer =
      !observeOnly && !hasFinalizer ? [...(this.meta.finalizers ?? []), FINALIZER] : undefined;
    if (withFinalizer && href) await this.patchMetadata({ finalizers: withFinalizer }, true);
    if (href) {
      if (this.annotations[Annotation.href] && this.annotations[Annotation.href] !== this.status.href) {
        this.event("Normal", EventReason.Adopted, `adopted ${href}`);
      }
      observed =
        this.deps.observations?.take(this.key, href) ?? (await this.kind.observe(client, href, desired));
      if (observed === undefined) {
        if (observeOnly) {
          throw new WaitError(Reason.NotFound, `${href} does not exist in the service`, 60_000);
        }
        this.log.info({ href }, "external object is gone; re-creating it");
        recreate = true;
        href = undefined;
        this.status.href = undefined;
        this.status.atProvider = undefined;
        this.status.applied = undefined;
        this.status.adopted = undefined;
        await this.patchMetadata({ annotations: { [Annotation.href]: null } }, false);
      } else {
        this.status.href = href;
        // A status with the href and no annotation (a write that failed, or an operator of an
        // earlier version stopped between the two): the annotation, and the pending one cleared.
        if (
          this.annotations[Annotation.href] !== href ||
          this.annotations[Annotation.createPending] !== undefined
        ) {
          await this.patchMetadata(
            { annotations: { [Annotation.href]: href, [Annotation.createPending]: null } },
            false,
          );
        }
      }
    } else if (observeOnly) {
      throw new InvalidSpecError(
        "managementPolicy",
        `ObserveOnly needs the ${Annotation.href} annotation naming the service object to observe`,
      );
    }

    const pending = this.annotations[Annotation.createPending] !== undefined;
    if (!href && (pending || this.kind.adoptExisting)) {
      const found = await this.lookupPending(client, desired, pending);
      if (found) {
        href = this.kind.hrefOf(found);
        observed = found;
        // Found without a pending create of ours: it existed before, and status says so.
        if (!pending) this.status.adopted = true;
        if (withFinalizer && !(this.meta.finalizers ?? []).includes(FINALIZER)) {
          await this.patchMetadata({ finalizers: withFinalizer }, true);
        }
        await this.recordHref(href!);
        if (pending)
          this.event(
            "Normal",
            EventReason.CreatePendingResolved,
            `found ${href} created by an earlier attempt; adopted it`,
          );
        else this.event("Normal", EventReason.Adopted, `found ${href} already in the service; adopted it`);
      }
    }

    if (!href) {
      const links = this.kind.links?.(spec) ?? [];
      const account = `${this.meta.namespace}/${accountName}`;
      await this.deps.links?.require(account, client, links, this.deps.dependencyRetryMs);
      const finalizers = (this.meta.finalizers ?? []).includes(FINALIZER) ? undefined : withFinalizer;
      await this.patchMetadata(
        {
          annotations: { [Annotation.createPending]: new Date(this.deps.clock.now()).toISOString() },
          finalizers,
        },
        true,
      );
      let created: string;
      try {
        created = await this.kind.create(client, desired);
      } catch (error) {
        if (this.deps.isOutcomeUnknown?.(error)) {
          this.log.warn({ err: error }, "create outcome unknown; the next attempt looks the object up first");
        }
        throw error;
      }
      href = created;
      this.status.href = href;
      this.status.adopted = undefined;
      this.status.applied = this.writeOnlyValues(desired);
      // The href goes into the annotation and the status this reconcile ends with, whatever its
      // outcome (see execute): one Kubernetes write fewer per create than a status write of its
      // own. Until then the create-pending annotation makes a crash look the object up, not
      // create it again.
      this.unrecordedHref = href;
      this.event(
        "Normal",
        recreate ? EventReason.Recreated : EventReason.Created,
        `${recreate ? "re-created" : "created"} ${href}`,
      );
      observed = await this.kind.observe(client, href, desired);
      if (observed === undefined)
        throw new WaitError(Reason.Creating, `created ${href}; waiting for the service to show it`, 2_000);
    }

    await this.finishReplacement(client, href, desired, observed);

    if (observeOnly) {
      this.status.atProvider = withoutNulls(this.kind.atProvider(observed));
      return {
        type: "ready",
        reason: Reason.Available,
        message: "observing the service object (ObserveOnly)",
      };
    }

    const diff: FieldDiff[] = [...this.kind.diff(desired, observed), ...this.writeOnlyDiff(desired)];
    const locked = diff.filter((d) => this.kind.immutable?.includes(d.field));
    if (locked.length > 0) {
      const fields = locked.map((d) => d.field).join(", ");
      if (this.kind.replace === "deleteBeforeCreate") {
        await this.kind.delete(client, href, observed);
        await this.patchMetadata({ annotations: { [Annotation.href]: null } }, false);
        this.status.href = undefined;
        this.status.atProvider = undefined;
        this.status.applied = undefined;
        this.status.adopted = undefined;
        this.event(
          "Normal",
          EventReason.Replaced,
          `deleted ${href} to replace it: ${fields} cannot be updated in place`,
        );
        return {
          type: "progressing",
          reason: Reason.Updating,
          message: `replacing: ${fields} changed`,
          requeueAfterMs: 1,
        };
      }
      if (this.kind.replace === "createBeforeDelete") return this.startReplacement(href, fields);
      throw terminal(
        Reason.ImmutableField,
        `${locked.map((d) => `spec.${d.field}`).join(", ")} cannot be changed on an existing ${this.kind.kind} ` +
          `(service has ${locked.map((d) => JSON.stringify(d.observed)).join(", ")}); create a new ${this.kind.kind} instead`,
      );
    }
    if (diff.length > 0) {
      const drift =
        this.obj.status?.observedGeneration === this.meta.generation &&
        isTrue(this.obj.status?.conditions, "Ready");
      await this.kind.update(client, href, desired, observed, diff);
      this.status.applied = this.writeOnlyValues(desired);
      const fields = diff.map((d) => d.field).join(", ");
      this.event(
        "Normal",
        drift ? EventReason.DriftCorrected : EventReason.Updated,
        `${drift ? "put back" : "updated"} ${fields}`,
      );
      observed = (await this.kind.observe(client, href, desired)) ?? observed;
      const remaining = this.kind.diff(desired, observed);
      if (remaining.length > 0) {
        this.status.atProvider = withoutNulls(this.kind.atProvider(observed));
        throw new WaitError(
          Reason.Updating,
          `waiting for the service to apply ${remaining.map((d) => d.field).join(", ")}`,
          5_000,
        );
      }
    }
    this.status.atProvider = withoutNulls(this.kind.atProvider(observed));
    const notReady = this.kind.notReady?.(observed);
    if (notReady) throw new WaitError(Reason.Creating, notReady, this.notReadyPollMs());
    this.notReadySince.delete(this.key);
    return { type: "ready", reason: Reason.Available, message: "" };
  }

  /**
   * How long to wait before looking again at an object the service shows as not ready: as long
   * as it has been so, between 1 s and 30 s (1, 1, 2, 4, ... s), so a short pending state (a
   * subnet) is seen over quickly and a long one costs few calls.
   */
  private notReadyPollMs(): number {
    const now = this.deps.clock.now();
    const since = this.notReadySince.get(this.key) ?? now;
    this.notReadySince.set(this.key, since);
    return Math.min(30_000, Math.max(1_000, now - since));
  }

  /** The kind's write-only values without undefined entries, or undefined when it has none. */
  private writeOnlyValues(desired: unknown): Record<string, unknown> | undefined {
    const values = this.kind.writeOnly?.(desired);
    if (!values) return undefined;
    return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  }

  /**
   * Write-only fields whose desired value differs from the one last applied. Without a
   * record (an object adopted by href) the spec is taken as applied: nothing can tell otherwise.
   */
  private writeOnlyDiff(desired: unknown): FieldDiff[] {
    const values = this.writeOnlyValues(desired);
    if (!values) return [];
    const applied = this.status.applied;
    if (applied === undefined) {
      this.status.applied = values;
      return [];
    }
    return [...new Set([...Object.keys(values), ...Object.keys(applied)])]
      .filter((field) => !deepEqual(values[field], applied[field]))
      .map((field) => ({ field, desired: values[field], observed: applied[field] }));
  }

  /**
   * createBeforeDelete: forget the old object but remember it in an annotation (written before
   * anything else, so a crash cannot leak it); the next reconcile creates the new one through the
   * normal no-duplicate create path, and `finishReplacement` deletes the old one after that.
   */
  private async startReplacement(href: string, fields: string): Promise<Outcome> {
    await this.patchMetadata({ annotations: { [Annotation.replaces]: href, [Annotation.href]: null } }, true);
    this.status.href = undefined;
    this.status.atProvider = undefined;
    this.status.applied = undefined;
    this.status.adopted = undefined;
    this.event(
      "Normal",
      EventReason.Replaced,
      `replacing ${href}: ${fields} cannot be updated in place; creating the new object before deleting it`,
    );
    return {
      type: "progressing",
      reason: Reason.Updating,
      message: `replacing ${href}: ${fields} changed`,
      requeueAfterMs: 1,
    };
  }

  /** Deletes the object a replacement superseded, once its successor exists and is usable. */
  private async finishReplacement(
    client: unknown,
    href: string,
    desired: unknown,
    observed: unknown,
  ): Promise<void> {
    const old = this.annotations[Annotation.replaces];
    if (old === undefined) return;
    if (old !== href) {
      if (this.kind.notReady?.(observed)) return;
      const current = await this.kind.observe(client, old, desired);
      if (current !== undefined) await this.kind.delete(client, old, current);
      this.event("Normal", EventReason.Replaced, `replaced ${old} with ${href}; deleted ${old}`);
    }
    await this.patchMetadata({ annotations: { [Annotation.replaces]: null } }, false);
  }

  private desiredContext(client: unknown, accountName: string, refs: Record<string, ResolvedReference>) {
    return {
      meta: this.meta,
      client,
      refs,
      log: this.log,
      account: `${this.meta.namespace}/${accountName}`,
      names: this.deps.names ?? this.fallbackNames,
    };
  }

  private readonly fallbackNames = new NameLookup();

  private currentHref(): string | undefined {
    return this.annotations[Annotation.href] || this.status.href || undefined;
  }

  /**
   * A create's href not yet written, on a path that ends without the status write: recorded on
   * its own. Should that fail too, the create-pending annotation still stands (a lookup, not a
   * second create).
   */
  private async recordUnrecordedHref(): Promise<void> {
    const href = this.unrecordedHref;
    if (href === undefined) return;
    await this.recordHref(href).catch((error: unknown) =>
      this.log.warn({ err: error, href }, "could not record the href of a create; a lookup will find it"),
    );
  }

  private async recordHref(href: string): Promise<void> {
    this.status.href = href;
    // Status first: the annotation write that follows then reads as ours, not as a hand adoption.
    // What only the reconcile knows about the new object is recorded with its href, so a crash cannot lose it.
    const known = { applied: this.status.applied, adopted: this.status.adopted };
    const patch = mergePatch(this.obj.status ?? {}, { ...(this.obj.status ?? {}), href, ...known });
    if (patch) this.obj = await this.deps.kube.patchStatus(this.ref, patch as Record<string, unknown>);
    await this.patchMetadata(
      { annotations: { [Annotation.href]: href, [Annotation.createPending]: null } },
      false,
    );
  }

  /** A create was pending: find what it may have created; more than one candidate stops. */
  private async lookupPending(
    client: unknown,
    desired: unknown,
    pending = true,
  ): Promise<unknown | undefined> {
    let candidates = await this.kind.lookup(client, desired);
    // Never adopt what another custom resource holds: that would make two owners.
    if (pending || this.kind.adoptExisting) {
      const identity = this.kind.adoptExisting === true;
      const hrefOf = (c: unknown) => this.kind.hrefOf(c);
      candidates = this.deps.owners.adoptable(this.kind.kind, this.obj, candidates, hrefOf, identity);
    }
    if (candidates.length > 1) {
      const hrefs = candidates.map((c) => this.kind.hrefOf(c)).join(", ");
      throw terminal(
        Reason.AmbiguousCreate,
        `${pending ? "a create was pending and " : ""}${candidates.length} service objects match: ${hrefs}; ` +
          `set the ${Annotation.href} annotation to the right one`,
      );
    }
    return candidates[0];
  }

  private client(accountName: string, use: AccountUse = "write"): unknown {
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

  private resolve(
    references: { field: string; kind: string; name: string }[],
  ): Record<string, ResolvedReference> {
    const out: Record<string, ResolvedReference> = {};
    const waiting: string[] = [];
    for (const r of references) {
      const target = this.deps.store.get(r.kind, this.meta.namespace, r.name);
      if (!target) waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (not found)`);
      else if (target.metadata.deletionTimestamp)
        waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (being deleted)`);
      else if (!isTrue(target.status?.conditions, "Ready") || !target.status?.href)
        waiting.push(`spec.${r.field}: ${r.kind} ${r.name} (not Ready)`);
      else
        out[r.field] = {
          kind: r.kind,
          name: r.name,
          href: target.status.href,
          atProvider: target.status.atProvider ?? {},
        };
    }
    if (waiting.length > 0) {
      throw new DependencyNotReadyError(`waiting for ${waiting.join(", ")}`, this.deps.dependencyRetryMs);
    }
    return out;
  }

  private async removeFinalizer(): Promise<void> {
    const finalizers = (this.meta.finalizers ?? []).filter((f) => f !== FINALIZER);
    await this.patchMetadata({ finalizers }, true);
    this.released = true;
  }

  private async deleteSteps(spec: Record<string, unknown>, accountName: string): Promise<Outcome | "gone"> {
    const blockers = blockersOf(this.key, this.deps.refs, this.deps.store);
    if (blockers.length > 0) {
      throw new DeletionBlockedError(
        blockedMessage(blockers, `references to ${this.kind.kind} ${this.meta.name}`),
        this.deps.dependencyRetryMs,
      );
    }
    let href = this.currentHref();
    if (spec.managementPolicy === "ObserveOnly" || spec.deletionPolicy === "Orphan") {
      if (href)
        this.event(
          "Normal",
          EventReason.Orphaned,
          `left ${href} in the service (${spec.deletionPolicy === "Orphan" ? "deletionPolicy Orphan" : "ObserveOnly"})`,
        );
      await this.removeFinalizer();
      return "gone";
    }
    const retained = href
      ? (this.deps.owners.retainReason(this.kind.kind, this.obj, href) ??
        this.kind.retain?.(spec, this.status))
      : undefined;
    if (retained) {
      this.event("Normal", EventReason.Orphaned, `left ${href} in the service: ${retained}`);
      await this.removeFinalizer();
      return "gone";
    }
    const replaced = this.annotations[Annotation.replaces];
    if (replaced !== undefined && replaced !== href) {
      // A replacement was under way: its superseded object goes too.
      const client = this.client(accountName, "delete");
      const current = await this.kind.observe(client, replaced, undefined);
      if (current !== undefined) {
        await this.kind.delete(client, replaced, current);
        this.event("Normal", EventReason.Deleted, `deleted ${replaced} (superseded by a replacement)`);
      }
    }
    const pending = this.annotations[Annotation.createPending] !== undefined;
    if (!href && !pending) {
      await this.removeFinalizer();
      return "gone";
    }
    const client = this.client(accountName, "delete");
    let observed: unknown;
    let desired: unknown;
    try {
      desired = await this.kind.desired(
        spec,
        this.desiredContext(client, accountName, this.resolveLoosely(spec)),
      );
    } catch {
      desired = undefined;
    }
    if (!href && desired !== undefined) {
      observed = await this.lookupPending(client, desired);
      href = observed === undefined ? undefined : this.kind.hrefOf(observed);
    } else if (href) {
      observed = await this.kind.observe(client, href, desired);
    }
    if (href && observed !== undefined) {
      await this.kind.delete(client, href, observed);
      this.event("Normal", EventReason.Deleted, `deleted ${href}`);
    }
    await this.removeFinalizer();
    return "gone";
  }

  /** References for computing the desired state during deletion: whatever resolves. */
  private resolveLoosely(spec: Record<string, unknown>): Record<string, ResolvedReference> {
    const out: Record<string, ResolvedReference> = {};
    for (const r of this.kind.references(spec)) {
      const target = this.deps.store.get(r.kind, this.meta.namespace, r.name);
      if (target?.status?.href) {
        out[r.field] = {
          kind: r.kind,
          name: r.name,
          href: target.status.href,
          atProvider: target.status.atProvider ?? {},
        };
      }
    }
    return out;
  }
}
