import type { Server } from "node:http";
import { hostname } from "node:os";
import { CoordinationV1Api, CustomObjectsApi, type KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { AccountController } from "./accounts.ts";
import { deletingTargets } from "./blockers.ts";
import { type Clock, systemClock } from "./clock.ts";
import { isTrue } from "./conditions.ts";
import type { OperatorConfig } from "./config.ts";
import { EventRecorder, type EventSink, rawEventsApi } from "./events.ts";
import { InformerSet } from "./informers.ts";
import type { AnyManagedKind, ManagedObject } from "./kind.ts";
import type { KubeWriter, ObjectStore } from "./kube.ts";
import { KubeApiWriter } from "./kube-api.ts";
import { RawKube } from "./kube-raw.ts";
import { shareDispatchers } from "./kubeconfig.ts";
import { LeaderElector } from "./leader.ts";
import { LinkCheck } from "./links.ts";
import { NameLookup } from "./lookup.ts";
import {
  type KindObjects,
  OperatorMetrics,
  RESOURCE_CONDITION,
  resourceConditionLines,
  startHealthServer,
} from "./metrics.ts";
import { Annotation, objectKey, parseKey } from "./names.ts";
import { IndexObserver, Observations, type ResyncReport } from "./observer.ts";
import { accountIdScope, OwnerIndex } from "./owners.ts";
import { WorkQueue } from "./queue.ts";
import { ManagedReconciler, type ReconcileOutcome } from "./reconciler.ts";
import { accountKey, ReferenceIndex } from "./references.ts";
import { SiblingIndex } from "./siblings.ts";

/** Everything the operator is built from; all injected so tests run several in one process. */
export interface OperatorOptions {
  config: OperatorConfig;
  kubeConfig: KubeConfig;
  kinds: AnyManagedKind[];
  /** Builds the Account controller once the shared parts exist. */
  accounts: (shared: {
    store: ObjectStore;
    kube: KubeWriter;
    refs: ReferenceIndex;
    events: EventSink;
    metrics: OperatorMetrics;
    /** Enqueues the dependents of an object (an Account whose client just became usable). */
    wake: (key: string) => void;
  }) => AccountController;
  registry: Registry;
  log: Logger;
  clock?: Clock;
  /** Terminal service errors (Stalled) and creates of unknown outcome (looked up before creating again). */
  isTerminalApiError?: (error: unknown) => boolean;
  isOutcomeUnknown?: (error: unknown) => boolean;
  /** Serve /metrics, /healthz and /readyz (default true). */
  serveHealth?: boolean;
}

/**
 * The operator: informers feed a work queue (handlers only enqueue), workers run the
 * Account controller and the generic managed reconciler, the index observer detects
 * drift every resync period, and only the Lease holder runs workers and resyncs.
 */
export class Operator {
  readonly metrics: OperatorMetrics;
  readonly refs = new ReferenceIndex();
  /** Which resource manages each href, over every watched namespace and kind. */
  readonly owners: OwnerIndex;
  private readonly siblings = new SiblingIndex();
  private readonly o: OperatorOptions;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly informers: InformerSet;
  private readonly writer: KubeWriter;
  private readonly events: EventRecorder;
  private readonly accounts: AccountController;
  private readonly reconcilers = new Map<string, ManagedReconciler>();
  private readonly observations: Observations;
  /** Name -> href lookups shared by every kind (clouds, volume types by name). */
  readonly names = new NameLookup();
  private readonly observer: IndexObserver;
  private readonly elector: LeaderElector | undefined;
  private queue: WorkQueue | undefined;
  private workers: Promise<void>[] = [];
  private resyncTimer: { cancel(): void } | undefined;
  private health: Server | undefined;
  private stopping = false;
  readonly identity: string;

  constructor(options: OperatorOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.metrics = new OperatorMetrics(options.registry);
    this.owners = new OwnerIndex(accountIdScope(() => this.informers));
    this.metrics.countResourcesFrom(() => this.kindObjects());
    const kc = shareDispatchers(options.kubeConfig);
    const custom = kc.makeApiClient(CustomObjectsApi);
    this.writer = new KubeApiWriter(kc);
    this.events = new EventRecorder({ api: rawEventsApi(new RawKube(kc)), clock: this.clock, log: this.log });
    this.identity =
      options.config.identity ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 7)}`;
    const selector = options.config.labelSelector;
    this.informers = new InformerSet({
      kubeConfig: kc,
      api: custom,
      kinds: [
        { kind: "Account", plural: "accounts" },
        ...options.kinds.map((k) => ({ kind: k.kind, plural: k.plural, labelSelector: selector })),
      ],
      namespaces: options.config.namespaces,
      handlers: {
        added: (kind, obj) => this.onAdded(kind, obj),
        updated: (kind, obj, old) => this.onUpdated(kind, obj, old),
        deleted: (kind, obj) => this.onDeleted(kind, obj),
      },
      log: this.log,
      clock: this.clock,
    });
    this.accounts = options.accounts({
      store: this.informers,
      kube: this.writer,
      refs: this.refs,
      events: this.events,
      metrics: this.metrics,
      wake: (key) => {
        // Everything an Account holds back, at once (an operator start): in dependency order.
        // Kinds the service can keep pending after a create (notReady) go first among equals, so
        // their wait overlaps the rest.
        const pends = (k: string) => this.pends(parseKey(k).kind);
        for (const dependent of this.refs.inDependencyOrder(this.refs.dependents(key), pends))
          this.enqueue(dependent);
      },
    });
    this.observations = new Observations(() => this.clock.now());
    // One cache of linked hrefs found to exist for every kind (Volumes and attachments share a cloud).
    const links = new LinkCheck({ now: () => this.clock.now(), ttlMs: options.config.resync });
    for (const kind of options.kinds) {
      this.reconcilers.set(
        kind.kind,
        new ManagedReconciler(kind, {
          links,
          store: this.informers,
          kube: this.writer,
          accounts: this.accounts,
          refs: this.refs,
          owners: this.owners,
          events: this.events,
          clock: this.clock,
          log: this.log,
          observations: this.observations,
          names: this.names,
          metrics: this.metrics,
          isTerminalApiError: options.isTerminalApiError,
          isOutcomeUnknown: options.isOutcomeUnknown,
        }),
      );
    }
    this.observer = new IndexObserver({
      kinds: options.kinds,
      store: this.informers,
      accounts: this.accounts,
      observations: this.observations,
      enqueue: (key) => this.queue?.add(key),
      log: this.log,
      onCall: (kind) => this.metrics.resyncCalls.inc({ kind }),
    });
    if (options.config.leaderElect) {
      this.elector = new LeaderElector({
        api: kc.makeApiClient(CoordinationV1Api),
        namespace: options.config.leaseNamespace,
        name: options.config.leaseName,
        identity: this.identity,
        leaseDurationMs: options.config.leaseDuration,
        clock: this.clock,
        log: this.log,
        onStartedLeading: () => this.startWorkers(),
        onStoppedLeading: () => void this.stopWorkers(),
      });
    }
  }

  get isLeader(): boolean {
    return this.queue !== undefined;
  }

  get ready(): boolean {
    return this.informers.synced && !this.stopping;
  }

  /** Starts informers (waits for the first list), the health server, then workers or the election. */
  async start(): Promise<void> {
    if (this.o.serveHealth !== false) {
      const { host, port } = this.o.config.metricsAddress;
      this.health = await startHealthServer({
        registry: this.o.registry,
        host,
        port,
        ready: () => this.ready,
        healthy: () => !this.stopping,
        extraNames: [RESOURCE_CONDITION.name],
        extra: () => resourceConditionLines(this.kindObjects()),
        log: this.log,
      });
    }
    await this.informers.start();
    if (this.elector) this.elector.start();
    else this.startWorkers();
  }

  /** Every kind's cached objects, for the metrics computed when scraped. */
  private kindObjects(): KindObjects[] {
    return this.allKinds().map((kind) => ({ kind, objects: this.informers.list(kind) }));
  }

  /** The address /metrics is served on (port 0 picks a free one). */
  get healthAddress(): { host: string; port: number } | undefined {
    const a = this.health?.address();
    return a && typeof a === "object" ? { host: a.address, port: a.port } : undefined;
  }

  /** Stops taking work, waits up to `timeoutMs` for in-flight reconciles, releases the lease. */
  async stop(timeoutMs = this.o.config.shutdownTimeout): Promise<void> {
    this.stopping = true;
    // Drain in-flight reconciles while still holding the lease, then release it.
    await this.stopWorkers(timeoutMs);
    if (this.elector) await this.elector.stop();
    await this.informers.stop();
    await this.events.flush();
    await this.accounts.close();
    await new Promise<void>((resolve) => (this.health ? this.health.close(() => resolve()) : resolve()));
    this.health?.closeAllConnections?.();
  }

  /** Runs one drift-detection pass now (tests, benchmarks). */
  resyncNow(): Promise<ResyncReport[]> {
    return this.observer.resync();
  }

  get store(): ObjectStore {
    return this.informers;
  }

  private startWorkers(): void {
    if (this.queue || this.stopping) return;
    this.metrics.leader.set(1);
    const queue = new WorkQueue({
      clock: this.clock,
      // Accounts first: every resource waits for its Account's credentials check, so after a
      // start with thousands of keys queued the check must not come after them all. Then the
      // kinds with the longest chains after them: woken dependents and polls of pending objects
      // go ahead of a backlog of leaves instead of behind it.
      priority: (key) => {
        const { kind } = parseKey(key);
        return kind === "Account" ? Number.MAX_SAFE_INTEGER : this.refs.kindLevel(kind, this.pends);
      },
      hooks: {
        depth: (d) => this.metrics.queueDepth.set(d),
        retry: (key) => this.metrics.retries.inc({ kind: parseKey(key).kind }),
      },
    });
    this.queue = queue;
    for (const kind of this.allKinds()) {
      for (const obj of this.informers.list(kind))
        this.enqueue(objectKey(kind, obj.metadata.namespace, obj.metadata.name));
    }
    this.workers = Array.from({ length: this.o.config.concurrency }, () => this.work(queue));
    this.resyncTimer = this.every(this.o.config.resync, () => this.observer.resync());
    this.log.info({ identity: this.identity, concurrency: this.o.config.concurrency }, "reconciling");
  }

  private async stopWorkers(timeoutMs = this.o.config.shutdownTimeout): Promise<void> {
    const queue = this.queue;
    if (!queue) return;
    this.queue = undefined;
    this.metrics.leader.set(0);
    this.resyncTimer?.cancel();
    queue.shutdown();
    const workers = this.workers;
    this.workers = [];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(workers),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (queue.inFlight > 0)
      this.log.warn({ inFlight: queue.inFlight }, "stopped with reconciles still in flight");
  }

  private async work(queue: WorkQueue): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      let result: ReconcileOutcome;
      try {
        result = await this.reconcileKey(key);
      } catch (error) {
        this.log.error({ err: error, key }, "reconcile threw");
        result = { retry: true };
      }
      if (result.retry) queue.addRateLimited(key);
      else {
        queue.forget(key);
        if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0)
          queue.addAfter(key, result.requeueAfterMs);
      }
      queue.done(key);
    }
  }

  /** The Account kind and every managed kind. */
  private allKinds(): string[] {
    return ["Account", ...this.o.kinds.map((k) => k.kind)];
  }

  private reconcileKey(key: string): Promise<ReconcileOutcome> {
    const { kind, namespace, name } = parseKey(key);
    if (kind === "Account") return this.accounts.reconcile(namespace, name);
    const reconciler = this.reconcilers.get(kind);
    if (!reconciler) return Promise.resolve({});
    return reconciler.reconcile(namespace, name);
  }

  /** Whether the service can keep objects of the kind pending after a create (the kind says when). */
  private readonly pends = (kind: string): boolean => this.reconcilers.get(kind)?.kind.notReady !== undefined;

  private enqueue(key: string): void {
    // A resource whose Account is on its first credentials check would only park (thousands
    // at an operator start): the Account wakes its dependents, in dependency order, instead.
    const account = this.refs.targetOfKind(key, "Account");
    if (account !== undefined && this.accounts.parkIfPending(account)) return;
    this.queue?.add(key);
  }

  private indexReferences(kind: string, obj: ManagedObject): void {
    const k = this.o.kinds.find((x) => x.kind === kind);
    if (!k) return;
    const parsed = k.schema.safeParse(obj.spec ?? {});
    if (!parsed.success) return;
    const spec = parsed.data as { accountRef: { name: string } };
    const { namespace } = obj.metadata;
    const group = k.siblings?.(spec);
    this.siblings.set(
      objectKey(kind, namespace, obj.metadata.name),
      group === undefined ? undefined : `${kind}\u0000${namespace}\u0000${group}`,
    );
    this.refs.set(objectKey(kind, namespace, obj.metadata.name), [
      accountKey(namespace, spec.accountRef.name),
      ...k.references(spec).map((r) => objectKey(r.kind, namespace, r.name)),
    ]);
  }

  private onAdded(kind: string, obj: ManagedObject): void {
    // An Account listed while the caches first fill: its credentials check need not wait for
    // them (a standby replica, which may never lead, does not check).
    if (kind === "Account" && !this.queue && !this.elector)
      this.accounts.checkAhead(obj.metadata.namespace, obj.metadata.name);
    this.indexReferences(kind, obj);
    if (kind !== "Account") this.owners.set(kind, obj);
    this.enqueue(objectKey(kind, obj.metadata.namespace, obj.metadata.name));
  }

  private onUpdated(kind: string, obj: ManagedObject, old: ManagedObject | undefined): void {
    const key = objectKey(kind, obj.metadata.namespace, obj.metadata.name);
    // References come from the spec: status and metadata writes (most updates) leave them as they are.
    if (old?.metadata.generation !== obj.metadata.generation) this.indexReferences(kind, obj);
    if (needsReconcile(old, obj)) this.enqueue(key);
    // An owner that let go of an href (its href changed, it turned ObserveOnly): the claimants may adopt.
    if (kind !== "Account") for (const claimant of this.owners.set(kind, obj)) this.enqueue(claimant);
    // What waits for this one to go (DeletionBlocked) now says it is being deleted.
    if (!old?.metadata.deletionTimestamp && obj.metadata.deletionTimestamp)
      for (const target of deletingTargets(key, this.refs, this.informers)) this.queue?.add(target);
    const wasReady = isTrue(old?.status?.conditions, "Ready");
    const isReady = isTrue(obj.status?.conditions, "Ready");
    if ((isReady && !wasReady) || (isReady && old?.status?.href !== obj.status?.href)) {
      for (const dependent of this.refs.dependents(key)) this.enqueue(dependent);
      for (const sibling of this.siblings.siblings(key)) this.enqueue(sibling);
    }
  }

  private onDeleted(kind: string, obj: ManagedObject): void {
    const key = objectKey(kind, obj.metadata.namespace, obj.metadata.name);
    const targets = this.refs.targets(key);
    this.refs.remove(key);
    for (const claimant of this.owners.remove(key)) this.enqueue(claimant);
    // Parents waiting for this dependent to go (DeletionBlocked) can proceed now.
    for (const t of targets) this.enqueue(t);
    for (const d of this.refs.dependents(key)) this.enqueue(d);
    for (const s of this.siblings.siblings(key)) this.enqueue(s);
    this.siblings.remove(key);
    this.enqueue(key);
  }

  private every(ms: number, fn: () => unknown): { cancel(): void } {
    let cancelled = false;
    let handle: unknown;
    const tick = () => {
      handle = this.clock.setTimeout(async () => {
        try {
          await fn();
        } catch (error) {
          this.log.warn({ err: error }, "periodic task failed");
        }
        if (!cancelled) tick();
      }, ms);
    };
    tick();
    return {
      cancel: () => {
        cancelled = true;
        this.clock.clearTimeout(handle);
      },
    };
  }
}

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
  if (a[Annotation.paused] !== b[Annotation.paused]) return true;
  if (a[Annotation.reconcileRequestedAt] !== b[Annotation.reconcileRequestedAt]) return true;
  // A user adopting by hand changes the href annotation to something status does not know yet;
  // the operator recording a create's href clears create-pending in the same write.
  const recordedCreate =
    a[Annotation.createPending] !== undefined && b[Annotation.createPending] === undefined;
  if (a[Annotation.href] !== b[Annotation.href] && b[Annotation.href] !== obj.status?.href && !recordedCreate)
    return true;
  return false;
}
