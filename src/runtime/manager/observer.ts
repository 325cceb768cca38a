import type { Logger } from "pino";
import { type Clock, type Footprint, keyed } from "../../lib/index.ts";
import type { ObjectStore } from "../client/index.ts";
import type { AccountClients, ObservationCache } from "../reconcile/index.ts";
import type { AnyManagedKind, ManagedObject } from "../sdk/index.ts";
import {
  Annotation,
  deepEqual,
  getCondition,
  isTrue,
  objectKey,
  Reason,
  withoutNulls,
} from "../sdk/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";

/**
 * Observations handed from a resync to the reconcile it triggers (saves the show call). An
 * observation read before this operator last wrote the object is stale (an index call in flight
 * while a reconcile updated it): it is refused, or it would "put back" the operator's own write.
 */
export class Observations implements ObservationCache {
  private readonly items = new Map<string, { href: string; observed: unknown; at: number }>();
  /** When the operator last wrote each object to the service, kept as long as an observation. */
  private readonly writes = new Map<string, number>();
  /** Waiting for the items to be at most so many (whenAtMost). */
  private readonly waiters = new Set<{ count: number; done: () => void }>();
  private readonly now: () => number;
  private readonly ttlMs: number;

  constructor(now: () => number, ttlMs = 60_000) {
    this.now = now;
    this.ttlMs = ttlMs;
  }

  /** `readAt`: when the read that saw it started (before any write it could have missed). */
  put(key: string, href: string, observed: unknown, readAt = this.now()): void {
    const wrote = this.writes.get(key);
    if (wrote !== undefined && wrote >= readAt) return;
    this.items.set(key, { href, observed, at: readAt });
  }

  take(key: string, href: string): unknown | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    this.items.delete(key);
    if (this.waiters.size > 0) this.shrunk();
    if (item.href !== href || this.now() - item.at > this.ttlMs) return undefined;
    return item.observed;
  }

  /** The time on the clock observations are stamped with (taken before a read starts). */
  time(): number {
    return this.now();
  }

  /** The operator wrote the object: what was read of it before is stale. */
  wrote(key: string): void {
    this.items.delete(key);
    this.writes.set(key, this.now());
  }

  /** Drops observations no reconcile took in time (the object went away or was paused meanwhile). */
  prune(): void {
    const now = this.now();
    for (const [key, item] of this.items) if (now - item.at > this.ttlMs) this.items.delete(key);
    for (const [key, at] of this.writes) if (now - at > this.ttlMs) this.writes.delete(key);
    this.shrunk();
  }

  /** The object is gone: an observation waiting for its reconcile goes too. */
  drop(key: string): void {
    this.items.delete(key);
    this.writes.delete(key);
    if (this.waiters.size > 0) this.shrunk();
  }

  get size(): number {
    return this.items.size;
  }

  /**
   * Resolves once at most `count` observations wait for their reconciles, or after `maxMs`
   * (one whose reconcile never comes holds no one back for long).
   */
  whenAtMost(count: number, maxMs: number, clock: Clock): Promise<void> {
    if (this.items.size <= count) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { count, done: () => {} };
      const handle = clock.setTimeout(() => waiter.done(), maxMs);
      waiter.done = () => {
        this.waiters.delete(waiter);
        clock.clearTimeout(handle);
        resolve();
      };
      this.waiters.add(waiter);
    });
  }

  private shrunk(): void {
    for (const waiter of [...this.waiters]) if (this.items.size <= waiter.count) waiter.done();
  }

  /** The per-object map (see footprint.ts). */
  footprint(): Footprint {
    return { observations: keyed(this.items), "observations.writes": keyed(this.writes) };
  }
}

export interface ResyncReport {
  kind: string;
  groups: number;
  calls: number;
  checked: number;
  drifted: number;
  missing: number;
  /** Objects the index could not cover (no scope, account not ready): reconciled one by one. */
  individually: number;
  /** Objects reporting contents no custom resource manages, reconciled with the observation to check again. */
  rechecked: number;
}

/**
 * Drift detection that does not cost one call per object: for each kind, the Ready
 * objects are grouped by (namespace, account, scope) and each group is read with one
 * index call. An object whose service representation differs from its
 * status.atProvider, or that the index no longer shows, is re-queued with the
 * observation attached.
 */
export class IndexObserver {
  private readonly o: {
    kinds: AnyManagedKind[];
    store: ObjectStore;
    accounts: AccountClients;
    observations: Observations;
    enqueue: (key: string) => void;
    log: Logger;
    /** A failing index is logged once per Account while it fails, not at each resync. */
    problems?: ProblemLog;
    onCall?: (kind: string) => void;
  };

  constructor(options: IndexObserver["o"]) {
    this.o = options;
  }

  private indexFailed(
    kind: string,
    g: { namespace: string; account: string; scope: string },
    error: unknown,
  ) {
    const message = error instanceof Error ? error.message : String(error);
    const fields = { kind, namespace: g.namespace, account: g.account, scope: g.scope };
    if (!this.o.problems) {
      this.o.log.warn({ ...fields, error: message }, "index observation failed");
      return;
    }
    // One cause per Account: a service that throttles or is down fails every kind's index at once.
    this.o.problems.failed({
      cause: `resync ${g.namespace}/${g.account}`,
      subject: indexSubject(kind, g),
      message: `drift detection of Account ${g.namespace}/${g.account} failed: ${message} (retried at the next resync)`,
      fields,
    });
  }

  async resync(): Promise<ResyncReport[]> {
    this.o.observations.prune();
    const reports: ResyncReport[] = [];
    for (const kind of this.o.kinds) reports.push(await this.resyncKind(kind));
    return reports;
  }

  async resyncKind(kind: AnyManagedKind): Promise<ResyncReport> {
    const report = emptyReport(kind.kind);
    const groups = this.group(kind, this.o.store.list(kind.kind), report);
    for (const g of groups.values()) {
      const read = await this.readGroup(kind, g, report);
      if (!read) continue;
      const { byHref, readAt } = read;
      for (const obj of g.objects) {
        report.checked++;
        const href = hrefOf(obj)!;
        const key = objectKey(kind.kind, obj.metadata.namespace, obj.metadata.name);
        const observed = byHref.get(href);
        if (observed === undefined) {
          report.missing++;
          this.o.enqueue(key);
        } else if (
          !deepEqual(
            withoutNulls(kind.atProvider(observed, obj.status?.applied)),
            obj.status?.atProvider ?? {},
          )
        ) {
          report.drifted++;
          this.o.observations.put(key, href, observed, readAt);
          this.o.enqueue(key);
        } else if (getCondition(obj.status?.conditions, "Ready")?.reason === Reason.UnmanagedContents) {
          // Whether a custom resource manages them now (one adopted by href) shows in no
          // representation: such objects (a few) are looked at again, with the observation.
          report.rechecked++;
          this.o.observations.put(key, href, observed, readAt);
          this.o.enqueue(key);
        }
      }
    }
    this.o.log.debug({ ...report }, "resync");
    return report;
  }

  /**
   * Queues settled objects of one kind (an Account's dependents at an operator start) each with
   * its observation from one index read per scope, so that their reconciles read nothing: a
   * restart over 50,000 costs a call per scope, not one per batch of reconciles that met in a
   * window. Only objects this process has not written since the read may take it (Observations),
   * which at a start is all of them. The objects no group covers, or whose group's read failed
   * or whose Account is not ready, are queued as they are: their reconciles read for themselves.
   */
  async confirm(kind: AnyManagedKind, objects: ManagedObject[]): Promise<ResyncReport> {
    const report = emptyReport(kind.kind);
    const groups = this.group(kind, objects, report, this.o.enqueue);
    for (const g of groups.values()) {
      const read = await this.readGroup(kind, g, report);
      for (const obj of g.objects) {
        const key = objectKey(kind.kind, obj.metadata.namespace, obj.metadata.name);
        const href = hrefOf(obj)!;
        const observed = read?.byHref.get(href);
        if (read && observed !== undefined) {
          report.checked++;
          this.o.observations.put(key, href, observed, read.readAt);
        } else if (read) report.missing++;
        this.o.enqueue(key);
      }
    }
    this.o.log.debug({ ...report }, "confirmed at start");
    return report;
  }

  /**
   * Whether the resync watches the object: it has an href, is Ready for its generation, neither
   * deleting nor paused. The others have their own retries.
   */
  settled(obj: ManagedObject): boolean {
    return (
      !!hrefOf(obj) &&
      !obj.metadata.deletionTimestamp &&
      obj.metadata.annotations?.[Annotation.paused] !== "true" &&
      isTrue(obj.status?.conditions, "Ready") &&
      obj.status?.observedGeneration === obj.metadata.generation
    );
  }

  /**
   * The settled objects by (namespace, account, scope); those without a scope are queued to be
   * reconciled one by one, the others left out (`leftOut`).
   */
  private group(
    kind: AnyManagedKind,
    objects: Iterable<ManagedObject>,
    report: ResyncReport,
    leftOut: (key: string) => void = () => {},
  ): Map<string, Group> {
    const groups = new Map<string, Group>();
    for (const obj of objects) {
      const parsed = this.settled(obj) ? kind.schema.safeParse(obj.spec ?? {}) : undefined;
      if (!parsed?.success) {
        leftOut(objectKey(kind.kind, obj.metadata.namespace, obj.metadata.name));
        continue;
      }
      const spec = parsed.data as { accountRef: { name: string } };
      const scope = kind.index ? kind.index.scope(spec, obj.status ?? {}) : undefined;
      if (scope === undefined) {
        report.individually++;
        this.o.enqueue(objectKey(kind.kind, obj.metadata.namespace, obj.metadata.name));
        continue;
      }
      const gk = `${obj.metadata.namespace}\u0000${spec.accountRef.name}\u0000${scope}`;
      let g = groups.get(gk);
      if (!g) {
        g = { namespace: obj.metadata.namespace, account: spec.accountRef.name, scope, objects: [] };
        groups.set(gk, g);
      }
      g.objects.push(obj);
    }
    report.groups = groups.size;
    return groups;
  }

  /** The group's index, by href, and when its read started; undefined: no client, or it failed. */
  private async readGroup(
    kind: AnyManagedKind,
    g: Group,
    report: ResyncReport,
  ): Promise<{ byHref: Map<string, unknown>; readAt: number } | undefined> {
    const found = this.o.accounts.get(g.namespace, g.account);
    if ("notReady" in found) return undefined;
    const readAt = this.o.observations.time();
    let items: unknown[];
    try {
      report.calls++;
      this.o.onCall?.(kind.kind);
      items = await kind.index!.list(found.client, g.scope);
    } catch (error) {
      this.indexFailed(kind.kind, g, error);
      return undefined;
    }
    this.o.problems?.succeeded(indexSubject(kind.kind, g));
    return { byHref: new Map(items.map((i) => [kind.hrefOf(i), i])), readAt };
  }
}

interface Group {
  namespace: string;
  account: string;
  scope: string;
  objects: ManagedObject[];
}

function emptyReport(kind: string): ResyncReport {
  return { kind, groups: 0, calls: 0, checked: 0, drifted: 0, missing: 0, individually: 0, rechecked: 0 };
}

function hrefOf(obj: ManagedObject): string | undefined {
  return obj.metadata.annotations?.[Annotation.href] || obj.status?.href;
}

/** A resync's index read, as a ProblemLog knows it. */
function indexSubject(kind: string, g: { namespace: string; account: string; scope: string }): string {
  return `index of ${kind} ${g.scope} for Account ${g.namespace}/${g.account}`;
}
