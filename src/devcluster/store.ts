import type { Obj } from "./meta.ts";

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

/** One change, kept for watches; `old` lets a filtered watch turn a change into ADDED or DELETED. */
export interface StoredEvent {
  type: EventType;
  object: Obj;
  old?: Obj;
  rv: number;
}

interface Bucket {
  objects: Map<string, Obj>;
  sortedKeys?: string[];
  history: StoredEvent[];
  /** Events after this resourceVersion are all in `history`. */
  since: number;
  /** resourceVersion of the bucket's latest change (kept across restarts). */
  lastRv: number;
  listeners: Set<(event: StoredEvent) => void>;
  /** Called when the bucket stops being served (its CRD is gone). */
  closers: Set<() => void>;
}

export interface StoreSnapshot {
  resourceVersion: number;
  buckets: Record<string, Obj[]>;
  /** Per bucket, the resourceVersion of its latest change: watches from there on stay valid. */
  lastChange?: Record<string, number>;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ""}/${name}`;
}

/**
 * All objects, one bucket per storage key, with one global resourceVersion counter (as etcd's
 * revision) and a bounded history of changes per bucket for watches. Stored objects are never
 * mutated: every write stores a new object.
 */
export class Store {
  private rv = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly historyLimit: number;
  private readonly onWrite: (key: string, event: StoredEvent) => void;
  private readonly onListenerError: (error: unknown) => void;

  constructor(
    options: {
      historyLimit?: number;
      /** Called after each write with the storage key and the change. */
      onWrite?: (key: string, event: StoredEvent) => void;
      onListenerError?: (error: unknown) => void;
    } = {},
  ) {
    this.historyLimit = options.historyLimit ?? 10_000;
    this.onWrite = options.onWrite ?? (() => {});
    this.onListenerError = options.onListenerError ?? (() => {});
  }

  get resourceVersion(): number {
    return this.rv;
  }

  nextResourceVersion(): number {
    this.rv += 1;
    return this.rv;
  }

  private bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      // Every change since this store started (or was restored) went through write(), so a
      // bucket seen for the first time has missed nothing.
      bucket = {
        objects: new Map(),
        history: [],
        since: 0,
        lastRv: 0,
        listeners: new Set(),
        closers: new Set(),
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  get(key: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.buckets.get(key)?.objects.get(objectKey(namespace, name));
  }

  /** Objects in key order (namespace/name), as etcd lists them; `from` starts after that key. */
  list(key: string, namespace?: string): Obj[] {
    const bucket = this.buckets.get(key);
    if (!bucket) return [];
    if (!bucket.sortedKeys) bucket.sortedKeys = [...bucket.objects.keys()].sort();
    const prefix = namespace === undefined ? undefined : `${namespace}/`;
    const out: Obj[] = [];
    for (const k of bucket.sortedKeys) {
      if (prefix !== undefined && !k.startsWith(prefix)) continue;
      out.push(bucket.objects.get(k)!);
    }
    return out;
  }

  count(key: string): number {
    return this.buckets.get(key)?.objects.size ?? 0;
  }

  /** Stores `object` (its metadata.resourceVersion already set to `rv`) and tells the watchers. */
  write(key: string, type: EventType, object: Obj, rv: number, old?: Obj): void {
    const bucket = this.bucket(key);
    const m = object.metadata as Obj;
    const k = objectKey(m.namespace as string | undefined, m.name as string);
    if (type === "DELETED") {
      bucket.objects.delete(k);
      bucket.sortedKeys = undefined;
    } else {
      if (!bucket.objects.has(k)) bucket.sortedKeys = undefined;
      bucket.objects.set(k, object);
    }
    bucket.lastRv = rv;
    const event: StoredEvent = { type, object, rv };
    if (old) event.old = old;
    bucket.history.push(event);
    if (bucket.history.length > this.historyLimit) {
      const dropped = bucket.history.splice(0, bucket.history.length - this.historyLimit);
      bucket.since = dropped.at(-1)!.rv;
    }
    for (const listener of [...bucket.listeners]) {
      // A failing watcher must not undo or hide a committed write from the others.
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    this.onWrite(key, event);
  }

  /** Events after `rv`, or "expired" when some of them are no longer kept. */
  eventsSince(key: string, rv: number): StoredEvent[] | "expired" {
    const bucket = this.bucket(key);
    if (rv < bucket.since) return "expired";
    const history = bucket.history;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (history[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return history.slice(lo);
  }

  oldestKept(key: string): number {
    return this.bucket(key).since;
  }

  subscribe(key: string, listener: (event: StoredEvent) => void, onClose?: () => void): () => void {
    const bucket = this.bucket(key);
    bucket.listeners.add(listener);
    if (onClose) bucket.closers.add(onClose);
    return () => {
      bucket.listeners.delete(listener);
      if (onClose) bucket.closers.delete(onClose);
    };
  }

  bucketKeys(): string[] {
    return [...this.buckets.keys()];
  }

  /** Drops a bucket's objects without events (a CRD's storage once its instances are gone). */
  dropBucket(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) {
      bucket.objects.clear();
      bucket.sortedKeys = undefined;
      for (const close of [...bucket.closers]) close();
    }
  }

  snapshot(): StoreSnapshot {
    const buckets: Record<string, Obj[]> = {};
    const lastChange: Record<string, number> = {};
    for (const [key, bucket] of this.buckets) {
      if (bucket.objects.size > 0) buckets[key] = [...bucket.objects.values()];
      if (bucket.lastRv > 0) lastChange[key] = bucket.lastRv;
    }
    return { resourceVersion: this.rv, buckets, lastChange };
  }

  /**
   * Loads a snapshot. The change history is not kept, but a bucket that did not change after
   * resourceVersion N can still serve a watch from N (nothing was missed), as etcd would.
   */
  restore(snapshot: StoreSnapshot): void {
    this.rv = snapshot.resourceVersion;
    this.buckets.clear();
    for (const [key, rv] of Object.entries(snapshot.lastChange ?? {})) {
      const bucket = this.bucket(key);
      bucket.since = Math.min(rv, this.rv);
      bucket.lastRv = rv;
    }
    for (const [key, objects] of Object.entries(snapshot.buckets)) {
      const known = this.buckets.has(key);
      const bucket = this.bucket(key);
      if (!known) bucket.since = this.rv;
      for (const object of objects) {
        const m = object.metadata as Obj;
        bucket.objects.set(objectKey(m.namespace as string | undefined, m.name as string), object);
      }
    }
  }
}
