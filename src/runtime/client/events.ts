import type {
  ConfigurationOptions,
  CoreV1Api,
  CoreV1Event,
  ObservableMiddleware,
} from "@kubernetes/client-node";
// The module, not the index (which loads every generated class: scripts/build.ts).
import { setHeaderOptions } from "@kubernetes/client-node/dist/middleware.js";
import type { Logger } from "pino";
import { type Clock, type Footprint, keyed, systemClock } from "../../lib/index.ts";
import type { EventType, ManagedObject } from "../sdk/index.ts";
import { API_VERSION } from "../sdk/index.ts";
import { describeKubeFailure, isNamespaceTerminating, kubeFailureOf, statusOf } from "./kube-errors.ts";
import { isReported, type RawKube } from "./kube-raw.ts";

/** Where the reconciler reports events; fire and forget. */
export interface EventSink {
  emit(object: ManagedObject, kind: string, type: EventType, reason: string, message: string): void;
}

export const discardEvents: EventSink = { emit() {} };

interface Aggregate {
  name: string;
  count: number;
  /** The Event's create call: a repeat's patch waits for it (else it can reach the apiserver first). */
  created: Promise<unknown>;
  /** The object's queue key (kind/namespace/name), to find its aggregates when it is deleted. */
  object: string;
}

interface Bucket {
  /** The object's uid: a new object of the same name starts with a full bucket. */
  uid: string;
  tokens: number;
  at: number;
}

/** client-go's event correlator keeps this many aggregates and spam-filter buckets (LRU). */
const CACHE_SIZE = 4096;

/** Gets a Map entry and makes it the most recently used (Maps iterate in insertion order). */
function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/**
 * Sets a Map entry as the most recently used; beyond `size`, drops the least recently used and
 * returns it.
 */
function remember<V>(map: Map<string, V>, key: string, value: V, size: number): [string, V] | undefined {
  map.delete(key);
  map.set(key, value);
  if (map.size <= size) return undefined;
  const oldest = map.entries().next().value as [string, V];
  map.delete(oldest[0]);
  return oldest;
}

/**
 * A small client-go style event recorder on CoreV1Api: a repeat of the same
 * (object, type, reason, message) patches `count` and `lastTimestamp` of the
 * existing Event instead of creating a new one, and a per-object token bucket
 * (burst 25, one token per 5 minutes, as client-go's spam filter) drops floods. Both are kept
 * for the 4,096 most recently used keys, as client-go does: memory does not grow with the
 * number of objects, and an object that has not emitted for long starts afresh. A deleted
 * object's entries are dropped at once (forget), not left to age out.
 */
export class EventRecorder implements EventSink {
  private readonly seen = new Map<string, Aggregate>();
  /** The keys of `seen` per object (queue key), so that forget finds them without a scan. */
  private readonly byObject = new Map<string, Set<string>>();
  private readonly buckets = new Map<string, Bucket>();
  /** Namespaces being deleted whose refusal was logged: one line each, not one per Event (LRU). */
  private readonly terminating = new Map<string, true>();
  private readonly api: Pick<CoreV1Api, "createNamespacedEvent" | "patchNamespacedEvent">;
  private readonly clock: Clock;
  private readonly log: Logger | undefined;
  private readonly component: string;
  private readonly burst: number;
  private readonly refillMs: number;
  private readonly cacheSize: number;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(options: {
    api: Pick<CoreV1Api, "createNamespacedEvent" | "patchNamespacedEvent">;
    clock?: Clock;
    log?: Logger;
    component?: string;
    burst?: number;
    refillMs?: number;
    cacheSize?: number;
  }) {
    this.api = options.api;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.component = options.component ?? "svc-operator";
    this.burst = options.burst ?? 25;
    this.refillMs = options.refillMs ?? 5 * 60_000;
    this.cacheSize = options.cacheSize ?? CACHE_SIZE;
  }

  emit(object: ManagedObject, kind: string, type: EventType, reason: string, message: string): void {
    const { namespace, name, uid = "" } = object.metadata;
    // Joined: one flat string per key kept (a template literal keeps a tree of concatenations).
    const objectKey = [kind, namespace, name].join("/");
    if (!this.take(objectKey, uid)) return;
    const key = [objectKey, uid, type, reason, message].join("/");
    const work = this.record(key, objectKey, object, kind, type, reason, message).then(
      () => {
        if (this.terminating.size > 0) this.terminating.delete(namespace);
      },
      (error: unknown) => this.failed(error, namespace, reason),
    );
    this.pending = this.pending.then(() => work);
  }

  private failed(error: unknown, namespace: string, reason: string): void {
    const failure = kubeFailureOf(error);
    if (isNamespaceTerminating(failure)) {
      // Not RBAC: the namespace is being deleted. Said once; its objects' Events are dropped meanwhile.
      if (touch(this.terminating, namespace)) return;
      remember(this.terminating, namespace, true, this.cacheSize);
      const call = { verb: "create", resource: "events", namespace };
      this.log?.info(
        { namespace, reason: "namespaceTerminating" },
        `${describeKubeFailure(call, failure, "")}; the Events of its objects are dropped until it is gone`,
      );
      return;
    }
    // Refused by RBAC or the apiserver unreachable: logged once per cause by RawKube, not per event.
    if (isReported(error)) this.log?.debug({ reason }, "could not record event");
    else this.log?.warn({ err: error, reason }, "could not record event");
  }

  /** Resolves when every event emitted so far has been written (tests, shutdown). */
  flush(): Promise<unknown> {
    return this.pending;
  }

  /** The object (a queue key) is deleted: its spam-filter bucket and its aggregates go. */
  forget(objectKey: string): void {
    this.buckets.delete(objectKey);
    for (const key of this.byObject.get(objectKey) ?? []) this.seen.delete(key);
    this.byObject.delete(objectKey);
  }

  /** The per-object maps (see footprint.ts). */
  footprint(): Footprint {
    return {
      "events.buckets": keyed(this.buckets),
      // Entries: the aggregates (the LRU's size); keys: the objects they are for.
      "events.aggregates": { entries: this.seen.size, keys: () => this.byObject.keys() },
    };
  }

  private take(objectKey: string, uid: string): boolean {
    const now = this.clock.now();
    const found = touch(this.buckets, objectKey);
    const b = found?.uid === uid ? found : { uid, tokens: this.burst, at: now };
    const refill = Math.floor((now - b.at) / this.refillMs);
    if (refill > 0) {
      b.tokens = Math.min(this.burst, b.tokens + refill);
      b.at = now;
    }
    remember(this.buckets, objectKey, b, this.cacheSize);
    if (b.tokens <= 0) return false;
    b.tokens--;
    return true;
  }

  private async record(
    key: string,
    objectKey: string,
    object: ManagedObject,
    kind: string,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<unknown> {
    const namespace = object.metadata.namespace;
    const now = new Date(this.clock.now()).toISOString();
    const existing = touch(this.seen, key);
    if (existing) {
      existing.count++;
      const count = existing.count;
      if (
        await existing.created.then(
          () => true,
          () => false,
        )
      ) {
        try {
          await this.api.patchNamespacedEvent(
            { name: existing.name, namespace, body: { count, lastTimestamp: now } },
            mergePatchOptions(),
          );
          return;
        } catch (error) {
          // Gone (the apiserver's event TTL, or deleted): record it afresh, as client-go does.
          if (statusOf(error) !== 404) throw error;
        }
      }
      return this.create(existing, object, kind, type, reason, message, now, count);
    }
    const aggregate: Aggregate = { name: "", count: 1, object: objectKey, created: Promise.resolve() };
    this.aggregate(key, aggregate);
    return this.create(aggregate, object, kind, type, reason, message, now, 1);
  }

  /** Creates the Event of an aggregate under a new name, with the count it has reached. */
  private create(
    aggregate: Aggregate,
    object: ManagedObject,
    kind: string,
    type: EventType,
    reason: string,
    message: string,
    now: string,
    count: number,
  ): Promise<unknown> {
    const namespace = object.metadata.namespace;
    const name = `${object.metadata.name}.${(this.clock.now() * 1000 + Math.floor(Math.random() * 1000)).toString(16)}`;
    const body: CoreV1Event = {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: API_VERSION,
        kind,
        name: object.metadata.name,
        namespace,
        uid: object.metadata.uid,
        resourceVersion: object.metadata.resourceVersion,
      },
      type,
      reason,
      message: message.slice(0, 1024),
      count,
      firstTimestamp: new Date(now),
      lastTimestamp: new Date(now),
      source: { component: this.component },
      reportingComponent: this.component,
    };
    aggregate.name = name;
    aggregate.created = this.api.createNamespacedEvent({ namespace, body });
    return aggregate.created;
  }

  private aggregate(key: string, value: Aggregate): void {
    let keys = this.byObject.get(value.object);
    if (!keys) {
      keys = new Set();
      this.byObject.set(value.object, keys);
    }
    keys.add(key);
    const dropped = remember(this.seen, key, value, this.cacheSize);
    if (dropped) {
      const [droppedKey, { object }] = dropped;
      const of = this.byObject.get(object);
      of?.delete(droppedKey);
      if (of?.size === 0) this.byObject.delete(object);
    }
  }
}

/** client-node sends strategic merge by default, which custom resources and some servers reject. */
export function mergePatchOptions(): ConfigurationOptions<ObservableMiddleware> {
  return setHeaderOptions("Content-Type", "application/merge-patch+json");
}

/**
 * The two Event calls of the recorder over RawKube (cheaper per call than the generated client).
 * The recorder does not read the answers: they are not parsed (the promises resolve to undefined).
 */
export function rawEventsApi(
  raw: RawKube,
): Pick<CoreV1Api, "createNamespacedEvent" | "patchNamespacedEvent"> {
  const path = (namespace: string, name = "") =>
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/events${name ? `/${encodeURIComponent(name)}` : ""}`;
  return {
    createNamespacedEvent: ({ namespace, body }: { namespace: string; body: CoreV1Event }) =>
      raw.send("POST", path(namespace), { apiVersion: "v1", kind: "Event", ...body }),
    patchNamespacedEvent: ({ namespace, name, body }: { namespace: string; name: string; body: object }) =>
      raw.send("PATCH", path(namespace, name), body, "application/merge-patch+json"),
  } as unknown as Pick<CoreV1Api, "createNamespacedEvent" | "patchNamespacedEvent">;
}
