import {
  type CustomObjectsApi,
  type Informer,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  ListWatch,
  type ObjectCache,
  Watch,
} from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, systemClock } from "./clock.ts";
import { counted, type Footprint } from "./footprint.ts";
import type { ManagedObject } from "./kind.ts";
import type { ObjectStore } from "./kube.ts";
import { GROUP, VERSION } from "./names.ts";
import { StringPool } from "./string-pool.ts";

export interface WatchedKind {
  kind: string;
  plural: string;
  /** Label selector for this kind (sharding); undefined watches everything. */
  labelSelector?: string;
}

export interface InformerHandlers {
  added(kind: string, object: ManagedObject): void;
  updated(kind: string, object: ManagedObject, old: ManagedObject | undefined): void;
  deleted(kind: string, object: ManagedObject): void;
}

export interface InformerSetOptions {
  kubeConfig: KubeConfig;
  api: CustomObjectsApi;
  kinds: WatchedKind[];
  namespaces: string[];
  handlers: InformerHandlers;
  log: Logger;
  clock?: Clock;
  backoff?: { baseMs: number; maxMs: number };
}

type CachedInformer = Informer<KubernetesObject> & ObjectCache<KubernetesObject>;

interface Entry {
  kind: string;
  namespace: string | undefined;
  informer: CachedInformer;
  synced: boolean;
  failures: number;
  restartTimer?: unknown;
  /** Last version seen per object: client-node's update callback does not pass the old object. */
  last: Map<string, ManagedObject>;
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
  private readonly slim = cacheTransform(this.pool);

  constructor(options: InformerSetOptions) {
    this.options = options;
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

  get synced(): boolean {
    return this.entries.length > 0 && this.entries.every((e) => e.synced);
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

  /** Its per-object maps (see footprint.ts): the last version seen of each object, the string pool. */
  footprint(): Footprint {
    return {
      "informers.last": {
        entries: this.entries.reduce((n, e) => n + e.last.size, 0),
        keys: () => this.entries.flatMap((e) => [...e.last.keys()].map((id) => `${e.kind}/${id}`)),
      },
      "informers.stringPool": counted(this.pool.length),
    };
  }

  list(kind: string): readonly ManagedObject[] {
    const out: ManagedObject[] = [];
    for (const e of this.entries)
      if (e.kind === kind) out.push(...(e.informer.list() as unknown as ManagedObject[]));
    return out;
  }

  private create(k: WatchedKind, namespace: string | undefined): Entry {
    const { api, kubeConfig, handlers } = this.options;
    const path = namespace
      ? `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${k.plural}`
      : `/apis/${GROUP}/${VERSION}/${k.plural}`;
    const page = (cont: string | undefined) =>
      (namespace
        ? api.listNamespacedCustomObject({
            group: GROUP,
            version: VERSION,
            namespace,
            plural: k.plural,
            labelSelector: k.labelSelector,
            limit: LIST_PAGE,
            _continue: cont,
          })
        : api.listClusterCustomObject({
            group: GROUP,
            version: VERSION,
            plural: k.plural,
            labelSelector: k.labelSelector,
            limit: LIST_PAGE,
            _continue: cont,
          })) as Promise<ListPage>;
    let onListed!: () => void;
    const listed = new Promise<void>((resolve) => {
      onListed = resolve;
    });
    const list = () => pagedList(page, this.slim).finally(onListed);
    // client-node's makeInformer, with a Watch that slims objects before the cache sees them.
    const informer = new ListWatch(
      path,
      new SlimWatch(kubeConfig, this.slim),
      list,
      false,
      k.labelSelector,
    ) as CachedInformer;
    const entry: Entry = {
      kind: k.kind,
      namespace,
      informer,
      synced: false,
      failures: 0,
      last: new Map(),
      listed,
    };
    const id = (o: KubernetesObject) => [o.metadata?.namespace, o.metadata?.name].join("/");
    informer.on("add", (o) => {
      const m = o as unknown as ManagedObject;
      entry.last.set(id(o), m);
      handlers.added(k.kind, m);
    });
    informer.on("update", (o) => {
      const m = o as unknown as ManagedObject;
      const old = entry.last.get(id(o));
      entry.last.set(id(o), m);
      handlers.updated(k.kind, m, old);
    });
    informer.on("delete", (o) => {
      entry.last.delete(id(o));
      handlers.deleted(k.kind, o as unknown as ManagedObject);
    });
    informer.on("connect", () => {
      entry.failures = 0;
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
    if (!failed) entry.synced = true;
  }

  private restartLater(entry: Entry, error: unknown): void {
    if (this.stopped || entry.restartTimer !== undefined) return;
    const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 500, maxMs: 30_000 };
    const delay = Math.min(maxMs, baseMs * 2 ** entry.failures);
    entry.failures++;
    this.log.warn(
      { err: error, kind: entry.kind, namespace: entry.namespace, retryInMs: delay },
      "informer stopped on an error; restarting",
    );
    entry.restartTimer = this.clock.setTimeout(() => {
      entry.restartTimer = undefined;
      void this.run(entry);
    }, delay);
  }
}

/** Objects per list page, as client-go's reflector pages its lists. */
export const LIST_PAGE = 500;

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

/**
 * Drops `metadata.managedFields` (controller-runtime's cache transform does the same): nearly half
 * of a small object, and the operator never reads it. The metadata is rebuilt rather than
 * `delete`d from: a deleted property turns the object into a slow dictionary (~450 B more each).
 */
export function withoutManagedFields<T extends { metadata?: object }>(o: T): T {
  const metadata = o.metadata as { managedFields?: unknown } | undefined;
  if (metadata?.managedFields) {
    const { managedFields: _, ...rest } = metadata;
    o.metadata = rest as T["metadata"];
  }
  return o;
}

/**
 * What the caches keep of an object: no managedFields, and the strings it shares with other
 * objects pooled (the metadata's unique fields — name, uid, resourceVersion — are left out of the
 * pool, where they would only push out shared ones).
 */
export function cacheTransform(pool: StringPool): <T extends KubernetesObject>(o: T) => T {
  return (o) => {
    withoutManagedFields(o);
    for (const key in o) if (key !== "metadata") pool.internAll((o as Record<string, unknown>)[key]);
    const metadata = o.metadata;
    if (metadata) {
      if (metadata.namespace) metadata.namespace = pool.intern(metadata.namespace);
      pool.internAll(metadata.finalizers);
      pool.internAll(metadata.annotations);
      pool.internAll(metadata.labels);
    }
    if (typeof o.apiVersion === "string") o.apiVersion = pool.intern(o.apiVersion);
    if (typeof o.kind === "string") o.kind = pool.intern(o.kind);
    return o;
  };
}

/** A client-node Watch whose events carry their objects as the caches keep them (`slim`). */
export class SlimWatch extends Watch {
  private readonly slim: (o: KubernetesObject) => KubernetesObject;

  constructor(config: KubeConfig, slim: (o: KubernetesObject) => KubernetesObject = withoutManagedFields) {
    super(config);
    this.slim = slim;
  }

  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: KubernetesObject, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    return super.watch(
      path,
      queryParams,
      (phase, apiObj, watchObj) => callback(phase, phase === "ERROR" ? apiObj : this.slim(apiObj), watchObj),
      done,
    );
  }
}
