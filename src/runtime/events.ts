import {
  type ConfigurationOptions,
  type CoreV1Api,
  type CoreV1Event,
  type ObservableMiddleware,
  setHeaderOptions,
} from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, systemClock } from "./clock.ts";
import type { ManagedObject } from "./kind.ts";
import { isReported, type RawKube } from "./kube-raw.ts";
import { API_VERSION } from "./names.ts";

export type EventType = "Normal" | "Warning";

/** Where the reconciler reports events; fire and forget. */
export interface EventSink {
  emit(object: ManagedObject, kind: string, type: EventType, reason: string, message: string): void;
}

export const discardEvents: EventSink = { emit() {} };

interface Aggregate {
  name: string;
  count: number;
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

/** Sets a Map entry as the most recently used, dropping the least recently used beyond `size`. */
function remember<V>(map: Map<string, V>, key: string, value: V, size: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > size) map.delete(map.keys().next().value as string);
}

/**
 * A small client-go style event recorder on CoreV1Api: a repeat of the same
 * (object, type, reason, message) patches `count` and `lastTimestamp` of the
 * existing Event instead of creating a new one, and a per-object token bucket
 * (burst 25, one token per 5 minutes, as client-go's spam filter) drops floods. Both are kept
 * for the 4,096 most recently used keys, as client-go does: memory does not grow with the
 * number of objects, and an object that has not emitted for long starts afresh.
 */
export class EventRecorder implements EventSink {
  private readonly seen = new Map<string, Aggregate>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
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
    const { namespace, name, uid } = object.metadata;
    // Joined: one flat string per key kept (a template literal keeps a tree of concatenations).
    const objectId = [kind, namespace, name, uid ?? ""].join("/");
    if (!this.take(objectId)) return;
    const key = [objectId, type, reason, message].join("/");
    const work = this.record(key, object, kind, type, reason, message).catch((error: unknown) => {
      // Refused by RBAC or the apiserver unreachable: logged once per cause by RawKube, not per event.
      if (isReported(error)) this.log?.debug({ reason }, "could not record event");
      else this.log?.warn({ err: error, reason }, "could not record event");
    });
    this.pending = this.pending.then(() => work);
  }

  /** Resolves when every event emitted so far has been written (tests, shutdown). */
  flush(): Promise<unknown> {
    return this.pending;
  }

  private take(objectId: string): boolean {
    const now = this.clock.now();
    const b = touch(this.buckets, objectId) ?? { tokens: this.burst, at: now };
    const refill = Math.floor((now - b.at) / this.refillMs);
    if (refill > 0) {
      b.tokens = Math.min(this.burst, b.tokens + refill);
      b.at = now;
    }
    remember(this.buckets, objectId, b, this.cacheSize);
    if (b.tokens <= 0) return false;
    b.tokens--;
    return true;
  }

  private async record(
    key: string,
    object: ManagedObject,
    kind: string,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<void> {
    const namespace = object.metadata.namespace;
    const now = new Date(this.clock.now()).toISOString();
    const existing = touch(this.seen, key);
    if (existing) {
      existing.count++;
      await this.api.patchNamespacedEvent(
        { name: existing.name, namespace, body: { count: existing.count, lastTimestamp: now } },
        mergePatchOptions(),
      );
      return;
    }
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
      count: 1,
      firstTimestamp: new Date(now),
      lastTimestamp: new Date(now),
      source: { component: this.component },
      reportingComponent: this.component,
    };
    remember(this.seen, key, { name, count: 1 }, this.cacheSize);
    await this.api.createNamespacedEvent({ namespace, body });
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
