// client-node's modules, not its index: the index loads every generated API and model class
// (scripts/build.ts), which `run` never uses.
import { ListWatch, type ObjectCache } from "@kubernetes/client-node/dist/cache.js";
import type { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import type { Informer } from "@kubernetes/client-node/dist/informer.js";
import type { KubernetesListObject, KubernetesObject } from "@kubernetes/client-node/dist/types.js";
import type { Logger } from "pino";
import { type Clock, counted, type Footprint, Permits, StringPool, systemClock } from "../../lib/index.ts";
import type { ObjectStore, RawKube } from "../client/index.ts";
import {
  asWatch,
  type KubeCall,
  type KubeFailureReason,
  KubeWatch,
  kubeTrouble,
  subjectOf,
} from "../client/index.ts";
import type { ManagedObject } from "../sdk/index.ts";
import { GROUP, VERSION } from "../sdk/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";
import { cacheTransform, metadataOnly, withoutManagedFields } from "./cache-slim.ts";
import { ConditionPool } from "./condition-pool.ts";
import { LeafPool } from "./leaf-pool.ts";

export interface WatchedKind {
  kind: string;
  plural: string;
  /** Label selector for this kind (sharding); undefined watches everything. */
  labelSelector?: string;
  /** A kind served outside cloud.svc.io (a core ConfigMap): its API path (`/api/v1`). */
  core?: { prefix: string };
}

export interface InformerHandlers {
  added(kind: string, object: ManagedObject): void;
  updated(kind: string, object: ManagedObject, old: ManagedObject | undefined): void;
  deleted(kind: string, object: ManagedObject): void;
}

export interface InformerSetOptions {
  kubeConfig: KubeConfig;
  /** Reads the list pages (GET of a collection path with its query). */
  kube: Pick<RawKube, "call" | "stream">;
  kinds: WatchedKind[];
  namespaces: string[];
  handlers: InformerHandlers;
  log: Logger;
  clock?: Clock;
  /** Restart delays: `baseMs` doubling per failure up to `maxMs`, each plus up to 25% (default 0.5 s to 30 s). */
  backoff?: { baseMs: number; maxMs: number };
  /** Where failures are logged, once per cause (without one: a line per failure). */
  problems?: ProblemLog;
  /** Counts each failure (svc_operator_informer_errors_total). */
  onError?: (kind: string, reason: KubeFailureReason) => void;
  /** Jitter source (tests). */
  random?: () => number;
  /** Each change to the cache, with the version it replaces (what the condition tally counts from). */
  onChange?: (kind: string, before: ManagedObject | undefined, after: ManagedObject | undefined) => void;
  /** Keep only each object's name, namespace and resourceVersion (ConfigMaps: their data is read when needed, never held). */
  metadataOnly?: boolean;
}

type CachedInformer = Informer<KubernetesObject> & ObjectCache<KubernetesObject>;

interface Entry {
  kind: string;
  namespace: string | undefined;
  plural: string;
  /** How the apiserver names the resource in its messages: `configmaps`, `accounts.cloud.svc.io`. */
  resource: string;
  informer: CachedInformer;
  /** Listed and watching at least once. */
  synced: boolean;
  /** Failed, and not yet restarted successfully: /readyz fails meanwhile. */
  failing?: string;
  /** Consecutive failures: the next restart waits baseMs * 2^failures. */
  failures: number;
  /** What the informer does now: an error is the list's until a list has succeeded. */
  phase: "list" | "watch";
  restartTimer?: unknown;
  /** Objects in its cache (added less deleted): the footprint's count, without listing them. */
  cached: number;
  /** Resolves once a list has been read (the first, at start). */
  listed: Promise<void>;
}

/**
 * One client-node informer per kind (and per namespace when namespaces are limited).
 * Handlers only enqueue; the caches serve reads. client-node re-lists by itself on
 * 410 but stops on any other error: it is restarted here with exponential backoff.
 */
export class InformerSet implements ObjectStore {
  private readonly entries: Entry[] = [];
  private stopped = false;
  private readonly clock: Clock;
  private readonly log: Logger;

  private readonly options: InformerSetOptions;
  /** Shared by every informer of the set: objects of different kinds share strings too. */
  private readonly pool = new StringPool();
  private readonly conditionPool = new ConditionPool();
  private readonly leafPool = new LeafPool();
  /** List pages read at once across the set's informers (see LIST_PAGES_AT_ONCE). */
  private readonly listPages = new Permits(LIST_PAGES_AT_ONCE);
  private readonly slim: <T extends KubernetesObject>(o: T, previous?: KubernetesObject) => T;

  constructor(options: InformerSetOptions) {
    this.options = options;
    this.slim = options.metadataOnly
      ? metadataOnly
      : cacheTransform(this.pool, this.conditionPool, this.leafPool);
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
  }

  /**
   * Lists the first kind before the others: what its objects start (the operator checks an
   * Account's credentials as it is listed) then overlaps the other lists instead of queueing
   * behind them at the apiserver.
   */
  async start(): Promise<void> {
    const namespaces = this.options.namespaces.length > 0 ? this.options.namespaces : [undefined];
    for (const k of this.options.kinds) {
      for (const ns of namespaces) this.entries.push(this.create(k, ns));
    }
    const first = this.options.kinds[0]?.kind;
    const firsts = this.entries.filter((e) => e.kind === first);
    const runs = firsts.map((e) => this.run(e));
    // Its list read (and its objects handed out), not its watch: the rest need not wait for that.
    await Promise.race([Promise.all(runs), Promise.all(firsts.map((e) => e.listed))]);
    await new Promise((resolve) => setImmediate(resolve));
    runs.push(...this.entries.filter((e) => e.kind !== first).map((e) => this.run(e)));
    await Promise.all(runs);
  }

  /** Every informer has listed, and none is failing now (what /readyz answers). */
  get synced(): boolean {
    return this.entries.length > 0 && this.entries.every((e) => e.synced && e.failing === undefined);
  }

  /** Why the kind has never been listed, if it has not (its cache is empty, not the cluster). */
  unlisted(kind: string): string | undefined {
    const e = this.entries.find((x) => x.kind === kind && !x.synced);
    return e ? (e.failing ?? "not listed yet") : undefined;
  }

  /** Why the set is not synced, one line per informer that is not (for /readyz). */
  notReady(): string[] {
    if (this.entries.length === 0) return ["informers not started"];
    return this.entries
      .filter((e) => !e.synced || e.failing !== undefined)
      .map((e) => `${e.kind}${e.namespace ? ` in ${e.namespace}` : ""}: ${e.failing ?? "not listed yet"}`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const e of this.entries) {
      if (e.restartTimer !== undefined) this.clock.clearTimeout(e.restartTimer);
      await e.informer.stop().catch(() => {});
    }
  }

  get(kind: string, namespace: string, name: string): ManagedObject | undefined {
    for (const e of this.entries) {
      if (e.kind !== kind || (e.namespace !== undefined && e.namespace !== namespace)) continue;
      const o = e.informer.get(name, namespace);
      if (o) return o as unknown as ManagedObject;
    }
    return undefined;
  }

  /** Its per-object maps (see footprint.ts): the cached objects, the pools they share values from. */
  footprint(): Footprint {
    return {
      "informers.cache": {
        entries: this.entries.reduce((n, e) => n + e.cached, 0),
        keys: () =>
          this.entries.flatMap((e) =>
            e.informer.list().map((o) => `${e.kind}/${o.metadata?.namespace}/${o.metadata?.name}`),
          ),
      },
      "informers.stringPool": counted(this.pool.length),
      "informers.conditionPool": counted(this.conditionPool.length),
      "informers.leafPool": counted(this.leafPool.length),
    };
  }

  list(kind: string): readonly ManagedObject[] {
    const of = this.entries.filter((e) => e.kind === kind);
    // One informer per kind (namespaces not limited): its own list, not a copy of it (a scrape
    // lists every kind, and a poller may scrape every 100 ms).
    if (of.length === 1) return of[0]!.informer.list() as unknown as ManagedObject[];
    const out: ManagedObject[] = [];
    // A loop, not push(...list): a spread of a kind's hundred thousand objects overflows the stack.
    for (const e of of) for (const o of e.informer.list()) out.push(o as unknown as ManagedObject);
    return out;
  }

  private create(k: WatchedKind, namespace: string | undefined): Entry {
    const { kube, handlers } = this.options;
    const prefix = k.core?.prefix ?? `/apis/${GROUP}/${VERSION}`;
    const path = namespace ? `${prefix}/namespaces/${namespace}/${k.plural}` : `${prefix}/${k.plural}`;
    const page = async (cont: string | undefined) => {
      await this.listPages.acquire(false);
      try {
        return await kube.call<ListPage>("GET", listPath(path, k.labelSelector, cont));
      } finally {
        this.listPages.release();
      }
    };
    // The version each object replaces, read as the object is slimmed, until its update is handed
    // out (client-node's update callback does not pass it). Not a map of every object's last
    // version: that is the cache itself, and a second map of it cost ~80 B per object.
    const replaces = new WeakMap<KubernetesObject, ManagedObject>();
    // Each object as the cache keeps it, given the version the cache holds now (read before the
    // informer replaces it: a watch event's object, a list page's objects, are slimmed first).
    const slim = (o: KubernetesObject) => {
      const previous = o.metadata?.name ? informer.get(o.metadata.name, o.metadata.namespace) : undefined;
      const slimmed = this.slim(o, previous);
      if (previous) replaces.set(slimmed, previous as unknown as ManagedObject);
      return slimmed;
    };
    let onListed!: () => void;
    const listed = new Promise<void>((resolve) => {
      onListed = resolve;
    });
    const list = () => {
      entry.phase = "list";
      return pagedList(page, slim)
        .then((listed) => {
          entry.phase = "watch";
          return listed;
        })
        .finally(onListed);
    };
    // client-node's makeInformer, with a Watch that slims objects before the cache sees them.
    const informer = new ListWatch(
      path,
      asWatch(new KubeWatch(kube, slim)),
      list,
      false,
      k.labelSelector,
    ) as CachedInformer;
    const entry: Entry = {
      kind: k.kind,
      namespace,
      plural: k.plural,
      resource: k.core ? k.plural : `${k.plural}.${GROUP}`,
      informer,
      synced: false,
      failures: 0,
      phase: "list",
      cached: 0,
      listed,
    };
    const changed = this.options.onChange;
    informer.on("add", (o) => {
      entry.cached++;
      changed?.(k.kind, undefined, o as unknown as ManagedObject);
      handlers.added(k.kind, o as unknown as ManagedObject);
    });
    informer.on("update", (o) => {
      const old = replaces.get(o);
      replaces.delete(o);
      changed?.(k.kind, old, o as unknown as ManagedObject);
      handlers.updated(k.kind, o as unknown as ManagedObject, old);
    });
    informer.on("delete", (o) => {
      entry.cached--;
      // A watched deletion's object was slimmed against the version cached; a relist's is that version.
      const counted = replaces.get(o) ?? (o as unknown as ManagedObject);
      replaces.delete(o);
      changed?.(k.kind, counted, undefined);
      handlers.deleted(k.kind, o as unknown as ManagedObject);
    });
    informer.on("error", (error) => this.restartLater(entry, error));
    return entry;
  }

  private async run(entry: Entry): Promise<void> {
    if (this.stopped) return;
    const before = entry.failures;
    let failed = false;
    const onError = () => {
      failed = true;
    };
    entry.informer.on("error", onError);
    try {
      await entry.informer.start();
    } catch (error) {
      failed = true;
      if (entry.failures === before) this.restartLater(entry, error);
    } finally {
      entry.informer.off("error", onError);
    }
    if (failed) return;
    // Listed (when it had to) and watching: the backoff starts over, and /readyz passes again.
    entry.synced = true;
    entry.failures = 0;
    entry.failing = undefined;
    for (const verb of ["list", "watch"]) this.options.problems?.succeeded(subjectOf(this.call(entry, verb)));
  }

  private call(entry: Entry, verb: string): KubeCall {
    return {
      verb,
      resource: entry.resource,
      ...(entry.namespace ? { namespace: entry.namespace } : {}),
    };
  }

  /**
   * Restarts a stopped informer after a delay that doubles per consecutive failure, jittered so that
   * the informers a cause stopped together do not retry in step. The failure is logged once per
   * cause (ProblemLog), never as the exception: client-node's carries the response headers and the
   * body escaped twice.
   */
  private restartLater(entry: Entry, error: unknown): void {
    if (this.stopped || entry.restartTimer !== undefined) return;
    const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 500, maxMs: 30_000 };
    const random = this.options.random ?? Math.random;
    const delay = Math.round(Math.min(maxMs, baseMs * 2 ** entry.failures) * (1 + random() / 4));
    entry.failures++;
    const server = this.options.kubeConfig.getCurrentCluster()?.server ?? "the apiserver";
    const { failure, trouble } = kubeTrouble(this.call(entry, entry.phase), error, server, {
      kind: entry.kind,
    });
    entry.failing = trouble.message;
    this.options.onError?.(entry.kind, failure.reason);
    if (this.options.problems) this.options.problems.failed(trouble);
    else this.log.warn({ ...trouble.fields, retryInMs: delay }, trouble.message);
    entry.restartTimer = this.clock.setTimeout(() => {
      entry.restartTimer = undefined;
      void this.run(entry);
    }, delay);
  }
}

/** A collection's path with the query of one list page. */
export function listPath(path: string, labelSelector: string | undefined, cont: string | undefined): string {
  const query = new URLSearchParams({ limit: String(LIST_PAGE) });
  if (labelSelector) query.set("labelSelector", labelSelector);
  if (cont) query.set("continue", cont);
  return `${path}?${query}`;
}

/** Objects per list page, as client-go's reflector pages its lists. */
export const LIST_PAGE = 500;

/**
 * List pages read at once by one InformerSet. Its informers list together (a dozen kinds), and
 * each page is held twice while it is read: its text, then its objects as parsed (managedFields
 * and all, before slimming), about 3 MB for 500 objects with status. A start with 50,000
 * resources read a page of every kind at once; two at a time keep the list's own memory to a few
 * pages, and the apiserver serves them no slower in turn.
 */
export const LIST_PAGES_AT_ONCE = 2;

/**
 * One consistent list read page by page (`limit`/`continue`, all pages from the first one's
 * snapshot), each page's objects slimmed before the next is read: the initial list of thousands
 * of objects never sits in memory whole as text and full objects at once.
 */
export async function pagedList(
  page: (cont: string | undefined) => Promise<ListPage>,
  slim: (o: KubernetesObject) => KubernetesObject = withoutManagedFields,
): Promise<KubernetesListObject<KubernetesObject>> {
  const items: KubernetesObject[] = [];
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    const p = await page(cont);
    for (const item of p.items ?? []) items.push(slim(item));
    resourceVersion = p.metadata?.resourceVersion;
    // Custom object lists come back as plain JSON (`continue`), typed lists as `_continue`.
    cont = p.metadata?.continue || p.metadata?._continue || undefined;
  } while (cont);
  return { metadata: { resourceVersion }, items };
}

/** One page of a list as the apiserver answers it. */
export interface ListPage {
  metadata?: { resourceVersion?: string; continue?: string; _continue?: string };
  items?: KubernetesObject[];
}
