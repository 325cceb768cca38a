import { hostname } from "node:os";
import type { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { type Clock, type Footprint, mergeFootprints, systemClock } from "../../lib/index.ts";
import type { AccountController } from "../accounts/index.ts";
import { AuditTrail } from "../audit/index.ts";
import type { InformerSet } from "../cache/index.ts";
import { KubeApiWriter } from "../cache/index.ts";
import type { KubeWriter, ObjectStore } from "../client/index.ts";
import { EventRecorder, type EventSink, RawKube, rawEventsApi, shareDispatchers } from "../client/index.ts";
import type { OperatorConfig } from "../config/index.ts";
import { accountIdScope, OwnerIndex, ReferenceIndex, SiblingIndex } from "../indexes/index.ts";
import { BatchedReads, LinkCheck, ManagedReconciler, type ReconcileOutcome } from "../reconcile/index.ts";
import type { AnyManagedKind, KeySources } from "../sdk/index.ts";
import { NameLookup, namespaceOfKey, objectKey, parseKey } from "../sdk/index.ts";
import type { ExplainServiceError } from "../telemetry/index.ts";
import { type KindObjects, MemoryMetrics, OperatorMetrics, ProblemLog } from "../telemetry/index.ts";
import { IndexObserver, Observations, type ResyncReport } from "./observer.ts";
import { InformerEvents } from "./operator-events.ts";
import { OperatorLifecycle } from "./operator-lifecycle.ts";
import { watchCluster } from "./operator-watches.ts";
import { Workers } from "./operator-workers.ts";
import { SettledConfirmations } from "./settled-confirmations.ts";

export { needsReconcile } from "./operator-events.ts";

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
    /** Where persisting failures are logged, once per cause. */
    problems: ProblemLog;
    /** Runs a wait with the reconcile's slot lent to other keys (Workers.lend): a credentials check's answer. */
    lend: <T>(wait: Promise<T>) => Promise<T>;
    /** Resolves when no audit call of an Account's resources is pending (AuditTrail.settledFor). */
    auditSettled: (namespace: string, name: string) => Promise<void>;
  }) => AccountController;
  registry: Registry;
  log: Logger;
  clock?: Clock;
  /** Terminal service errors (Stalled) and creates of unknown outcome (looked up before creating again). */
  isTerminalApiError?: (error: unknown) => boolean;
  isOutcomeUnknown?: (error: unknown) => boolean;
  /** Words for service failures that say what to do (conditions, and one log line per cause). */
  explainServiceError?: ExplainServiceError;
  /** Serve /metrics, /healthz and /readyz (default true). */
  serveHealth?: boolean;
}

/**
 * The operator: informers feed a work queue (handlers only enqueue, operator-events.ts), workers
 * run the Account controller and the generic managed reconciler, the index observer detects
 * drift every resync period, and only the Lease holder runs workers and resyncs
 * (operator-workers.ts). This class builds the parts; operator-lifecycle.ts starts and stops them.
 */
export class Operator {
  readonly metrics: OperatorMetrics;
  readonly refs = new ReferenceIndex();
  /** Which resource manages each href, over every watched namespace and kind. */
  readonly owners: OwnerIndex;
  private readonly o: OperatorOptions;
  private readonly clock: Clock;
  private readonly log: Logger;
  /** Failures that persist (RBAC, a missing CRD, an unreachable apiserver or service): a line per cause, not per attempt. */
  readonly problems: ProblemLog;
  private readonly writer: KubeWriter;
  private readonly events: EventRecorder;
  private readonly accounts: AccountController;
  private readonly reconcilers = new Map<string, ManagedReconciler>();
  private readonly observations: Observations;
  /** Name -> href lookups shared by every kind (clouds, volume types by name). */
  readonly names = new NameLookup();
  private readonly siblings = new SiblingIndex();
  /** One cache of linked hrefs found to exist for every kind (Volumes and attachments share a cloud). */
  private readonly links: LinkCheck;
  private readonly batchedReads: BatchedReads;
  private readonly memory: MemoryMetrics;
  private readonly observer: IndexObserver;
  private readonly confirmations: SettledConfirmations;
  private readonly handlers: InformerEvents;
  private readonly workers: Workers;
  private readonly audit: AuditTrail;
  /** The cluster's informers, and the ConfigMap and Secret keys specs read (operator-watches.ts). */
  private readonly informers: InformerSet;
  private readonly keySources: KeySources;
  private readonly configMaps: InformerSet | undefined;
  /** Starts and stops the parts in order (health server, informers, election or workers). */
  private readonly lifecycle: OperatorLifecycle;
  readonly identity: string;

  constructor(options: OperatorOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.metrics = new OperatorMetrics(options.registry);
    this.owners = new OwnerIndex(accountIdScope(() => this.informers));
    this.metrics.conditions.track(this.allKinds());
    this.problems = new ProblemLog({ log: this.log, clock: this.clock });
    this.memory = new MemoryMetrics(options.registry, () => this.footprint());
    const byKind = new Map(options.kinds.map((k) => [k.kind, k]));
    const kindOf = (kind: string) => byKind.get(kind);
    const kc = shareDispatchers(options.kubeConfig);
    // Lists (informers) and the Lease over RawKube, not client-node's generated clients (see
    // scripts/build.ts: the bundle then holds none of their classes).
    const lists = new RawKube(kc);
    const writer = new KubeApiWriter(kc, this.problems);
    this.writer = writer;
    this.events = new EventRecorder({
      api: rawEventsApi(new RawKube(kc, this.problems)),
      clock: this.clock,
      log: this.log,
    });
    this.identity =
      options.config.identity ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 7)}`;
    const watches = watchCluster({
      kubeConfig: kc,
      kube: lists,
      config: options.config,
      kinds: options.kinds,
      handlers: {
        added: (kind, obj) => this.handlers.added(kind, obj),
        updated: (kind, obj, old) => {
          this.handlers.updated(kind, obj, old);
          this.reconcilers.get(kind)?.forgetCaughtUp(obj);
        },
        deleted: (kind, obj) => {
          this.handlers.deleted(kind, obj);
          this.forget(objectKey(kind, obj.metadata.namespace, obj.metadata.name));
        },
      },
      onChange: (kind, before, after) => this.metrics.conditions.change(kind, before, after),
      read: (kind, namespace, name) => writer.readData(kind, namespace, name),
      enqueue: (key) => this.handlers.enqueue(key),
      log: this.log,
      clock: this.clock,
      problems: this.problems,
      onError: (kind, reason) => this.metrics.informerErrors.inc({ kind, reason }),
    });
    ({ informers: this.informers, keySources: this.keySources, configMaps: this.configMaps } = watches);
    this.audit = new AuditTrail({
      identity: this.identity,
      store: this.informers,
      kube: this.writer,
      log: this.log,
      metrics: this.metrics,
      // A deletion waiting for its audit line lends its reconcile's slot meanwhile.
      lend: (wait) => this.workers.lend(wait),
      busy: () => {
        const queue = this.workers?.queue;
        return queue !== undefined && queue.length + queue.inFlight > 0;
      },
    });
    this.accounts = options.accounts({
      problems: this.problems,
      store: this.informers,
      kube: this.writer,
      refs: this.refs,
      events: this.events,
      metrics: this.metrics,
      wake: (key) => {
        // Everything an Account holds back, at once (an operator start): in dependency order.
        // Kinds the service can keep pending after a create (notReady) go first among equals, so
        // their wait overlaps the rest.
        // The settled ones are queued with their observations, one index read per scope.
        const pends = (k: string) => this.pends(parseKey(k).kind);
        void this.confirmations.release(this.refs.inDependencyOrder(this.refs.dependents(key), pends));
      },
      lend: (wait) => this.workers.lend(wait),
      auditSettled: (namespace, name) => this.audit.settledFor(namespace, name),
    });
    this.handlers = new InformerEvents({
      kinds: options.kinds,
      store: this.informers,
      refs: this.refs,
      owners: this.owners,
      siblings: this.siblings,
      accounts: this.accounts,
      queue: () => this.workers.queue,
      // Without an election nothing starts the workers until start(): look ahead meanwhile.
      checkAhead: () => !this.workers.queue && !options.config.leaderElect,
      parkAhead: (key) => this.reconcilers.get(parseKey(key).kind)!.parkAhead(key),
    });
    this.observations = new Observations(() => this.clock.now());
    this.links = new LinkCheck({ now: () => this.clock.now(), ttlMs: options.config.resync });
    // Objects just created, updated or pending are read through their kind's index, many per call;
    // a reconcile waiting for its batch lends its slot to another key.
    this.batchedReads = new BatchedReads({ idle: (wait) => this.workers.lend(wait) });
    for (const kind of options.kinds) {
      this.reconcilers.set(
        kind.kind,
        new ManagedReconciler(kind, {
          links: this.links,
          store: this.informers,
          kube: this.writer,
          accounts: this.accounts,
          refs: this.refs,
          owners: this.owners,
          events: this.events,
          clock: this.clock,
          log: this.log,
          observations: this.observations,
          batchedReads: this.batchedReads,
          names: this.names,
          metrics: this.metrics,
          isTerminalApiError: options.isTerminalApiError,
          isOutcomeUnknown: options.isOutcomeUnknown,
          audit: this.audit,
          problems: this.problems,
          explainServiceError: options.explainServiceError,
          keySources: this.keySources,
          kindOf,
        }),
      );
    }
    this.observer = new IndexObserver({
      kinds: options.kinds,
      store: this.informers,
      accounts: this.accounts,
      observations: this.observations,
      enqueue: (key) => this.workers.queue?.add(key),
      log: this.log,
      problems: this.problems,
      onCall: (kind) => this.metrics.resyncCalls.inc({ kind }),
    });
    this.confirmations = new SettledConfirmations({
      kindOf,
      store: this.informers,
      observer: this.observer,
      observations: this.observations,
      enqueue: (key) => this.handlers.enqueueOrPark(key),
      clock: this.clock,
      log: this.log,
    });
    this.workers = new Workers({
      clock: this.clock,
      log: this.log,
      metrics: this.metrics,
      identity: this.identity,
      concurrency: options.config.concurrency,
      resyncMs: options.config.resync,
      // Accounts first: every resource waits for its Account's credentials check, so after a
      // start with thousands of keys queued the check must not come after them all. An Account
      // whose last check failed is retried with the leaves, not ahead of everyone's work: an
      // endpoint that does not answer must not put its Account first at every retry. Then the
      // kinds with the longest chains after them: woken dependents and polls of pending objects
      // go ahead of a backlog of leaves instead of behind it.
      priority: (key) => {
        const { kind } = parseKey(key);
        if (kind !== "Account") return this.refs.kindLevel(kind, this.pends, this.ordersItself);
        return this.accounts.failing(key) ? 0 : Number.MAX_SAFE_INTEGER;
      },
      // Within a lane the namespaces take turns: one tenant's hundreds of keys (its Accounts at a
      // hanging endpoint) delay another's next key by one key each, not by all of them.
      flow: namespaceOfKey,
      enqueueAll: () => {
        for (const kind of this.allKinds()) {
          for (const obj of this.informers.list(kind))
            this.handlers.enqueue(objectKey(kind, obj.metadata.namespace, obj.metadata.name));
        }
      },
      reconcile: (key) => this.reconcileKey(key),
      resync: () => this.resyncNow(),
      onIdle: () => this.batchedReads.flush(),
    });
    this.lifecycle = new OperatorLifecycle({
      config: options.config,
      registry: options.registry,
      serveHealth: options.serveHealth !== false,
      log: this.log,
      clock: this.clock,
      problems: this.problems,
      identity: this.identity,
      server: kc.getCurrentCluster()?.server,
      lists,
      informers: this.informers,
      configMaps: this.configMaps,
      workers: this.workers,
      audit: this.audit,
      events: this.events,
      accounts: this.accounts,
      memory: this.memory,
      kindObjects: () => this.kindObjects(),
    });
  }

  get isLeader(): boolean {
    return this.workers.queue !== undefined;
  }

  get ready(): boolean {
    return this.lifecycle.ready;
  }

  /** Starts informers (waits for the first list), the health server, then workers or the election. */
  start(): Promise<void> {
    return this.lifecycle.start();
  }

  /** Every kind's cached objects, for the metrics computed when scraped. */
  private kindObjects(): KindObjects[] {
    return this.allKinds().map((kind) => ({ kind, objects: this.informers.list(kind) }));
  }

  /** The address /metrics is served on (port 0 picks a free one). */
  get healthAddress(): { host: string; port: number } | undefined {
    return this.lifecycle.healthAddress;
  }

  /** Stops taking work, waits up to `timeoutMs` for in-flight reconciles, releases the lease. */
  stop(timeoutMs?: number): Promise<void> {
    return this.lifecycle.stop(timeoutMs);
  }

  /**
   * One drift-detection pass (every resync period; tests and benchmarks call it too): the service's
   * objects through the collection indexes, then the ConfigMaps and Secrets specs read.
   */
  async resyncNow(): Promise<ResyncReport[]> {
    const reports = await this.observer.resync();
    await this.keySources.recheck();
    return reports;
  }

  get store(): ObjectStore {
    return this.informers;
  }

  /** The Account kind and every managed kind. */
  private allKinds(): string[] {
    return ["Account", ...this.o.kinds.map((k) => k.kind)];
  }

  private async reconcileKey(key: string): Promise<ReconcileOutcome> {
    const { kind, namespace, name } = parseKey(key);
    const reconciler = this.reconcilers.get(kind);
    const result =
      kind === "Account"
        ? await this.accounts.reconcile(namespace, name)
        : reconciler
          ? await reconciler.reconcile(namespace, name)
          : {};
    // Again after the informer's deletion: a reconcile in flight then may have kept something.
    if (result.gone) this.forget(key);
    return result;
  }

  /**
   * An object is gone from the cache: what the runtime kept for it goes too (the indexes fed by
   * informer events drop theirs in InformerEvents.deleted; the work queue on `gone`).
   */
  private forget(key: string): void {
    const { kind, namespace, name } = parseKey(key);
    this.events.forget(key);
    this.observations.drop(key);
    this.keySources.forget(key);
    this.reconcilers.get(kind)?.forget(key);
    if (kind === "Account") void this.accounts.forget(namespace, name);
  }

  /**
   * Every per-object map of the runtime with its entries (docs/operator.md, "What the operator keeps
   * per object"): for tests that churn objects, the soak, and `svc_operator_runtime_map_entries`.
   */
  footprint(): Footprint {
    return mergeFootprints(
      this.workers.queue?.footprint() ?? {},
      ...[...this.reconcilers.values()].map((r) => r.footprint()),
      this.accounts.footprint(),
      this.refs.footprint(),
      this.owners.footprint(),
      this.siblings.footprint(),
      this.events.footprint(),
      this.observations.footprint(),
      this.informers.footprint(),
      this.links.footprint(),
      this.names.footprint(),
    );
  }

  /** Whether the service can keep objects of the kind pending after a create (the kind says when). */
  private readonly pends = (kind: string): boolean => this.reconcilers.get(kind)?.kind.notReady !== undefined;
  /** Its objects wait for one another (ManagedKind.siblings): a chain within the kind. */
  private readonly ordersItself = (kind: string): boolean =>
    this.reconcilers.get(kind)?.kind.siblings !== undefined;
}
