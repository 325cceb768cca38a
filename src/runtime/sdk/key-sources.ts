import type { Logger } from "pino";
import * as z from "zod";
import { BoundedMap } from "../../lib/index.ts";
import { objectKey } from "./names.ts";
import { BlockedError, Reason, type WaitingReason } from "./result.ts";
import { exactlyOne } from "./spec.ts";

/**
 * "A spec reads a key of a ConfigMap or a Secret" (a stored script attachment's content), for
 * every kind: the spec field's schema, the read at reconcile (`get`, in the resource's own
 * namespace), conditions naming the field when something is missing, and which objects to
 * re-queue when a source changes. What is read is bytes a kind sends to the service; the runtime
 * never logs it, never puts it in status, events or metrics, and masks its field in the audit trail.
 */

export type SourceKind = "ConfigMap" | "Secret";

/** One key a spec names: `field` is the spec field holding the reference (`contentFrom`). */
export interface KeySource {
  field: string;
  kind: SourceKind;
  name: string;
  key: string;
}

/** A ConfigMap's or Secret's data as bytes (a ConfigMap's `data` and `binaryData`), with its resourceVersion. */
export interface SourceData {
  resourceVersion: string;
  data: Record<string, Buffer>;
}

/** Reads a ConfigMap or Secret of a namespace; undefined when it does not exist. */
export type ReadSource = (
  kind: SourceKind,
  namespace: string,
  name: string,
) => Promise<SourceData | undefined>;

const MEMBERS = { configMapKeyRef: "ConfigMap", secretKeyRef: "Secret" } as const;

const keyRef = (kind: SourceKind) =>
  z
    .object({
      name: z
        .string()
        .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, `must be a ${kind} name (DNS subdomain)`)
        .max(253)
        .describe(`Name of a ${kind} in the resource's namespace.`),
      key: z
        .string()
        .regex(/^[-._a-zA-Z0-9]+$/, `must be a ${kind} key (letters, digits, '-', '_', '.')`)
        .max(253)
        .describe(`The key of the ${kind} whose value is read.`),
    })
    .strict();

/** The spec field of a key source: exactly one of `configMapKeyRef` and `secretKeyRef`, both `{name, key}`. */
export function keySourceSchema(what: string) {
  return z
    .object({
      configMapKeyRef: keyRef("ConfigMap")
        .optional()
        .describe(`A key of a ConfigMap in the same namespace holding ${what} (data or binaryData).`),
      secretKeyRef: keyRef("Secret")
        .optional()
        .describe(`A key of a Secret in the same namespace holding ${what}.`),
    })
    .strict()
    .meta({ "x-kubernetes-validations": [exactlyOne(Object.keys(MEMBERS))] })
    .describe(`Where ${what} comes from: exactly one of configMapKeyRef and secretKeyRef.`);
}

export type KeySourceSpec = z.output<ReturnType<typeof keySourceSchema>>;

/** The key a spec field names. */
export function keySourceOf(field: string, value: KeySourceSpec): KeySource {
  const ref = value.configMapKeyRef ?? value.secretKeyRef!;
  return { field, kind: value.configMapKeyRef ? "ConfigMap" : "Secret", name: ref.name, key: ref.key };
}

/** The spec field of a member of the reference, as messages name it: `contentFrom.configMapKeyRef.key`. */
export function sourceField(s: KeySource, member: "name" | "key" = "key"): string {
  return `${s.field}.${s.kind === "ConfigMap" ? "configMapKeyRef" : "secretKeyRef"}.${member}`;
}

/** A ConfigMap or Secret as the apiserver answers it, as bytes per key. */
export function sourceData(
  object: {
    metadata?: { resourceVersion?: string };
    data?: Record<string, string>;
    binaryData?: Record<string, string>;
  },
  kind: SourceKind,
): SourceData {
  const data: Record<string, Buffer> = {};
  // A Secret's data is base64, a ConfigMap's text; binaryData is base64 (its keys never repeat data's).
  for (const [k, v] of Object.entries(object.data ?? {}))
    data[k] = Buffer.from(v, kind === "Secret" ? "base64" : "utf8");
  for (const [k, v] of Object.entries(object.binaryData ?? {})) data[k] = Buffer.from(v, "base64");
  return { resourceVersion: object.metadata?.resourceVersion ?? "", data };
}

const sourceKey = (kind: SourceKind, namespace: string, name: string) => objectKey(kind, namespace, name);

/** Watched ConfigMaps whose data is kept while their version stands (the most recently read). */
const KEPT_SOURCES = 16;
/** The most data of one ConfigMap kept: bigger ones are read from the apiserver each time. */
const KEPT_MAX_BYTES = 64 * 1024;

export interface KeySourcesOptions {
  read: ReadSource;
  /** Re-queues a resource (a queue key). */
  enqueue(key: string): void;
  /**
   * The resourceVersion a watch's cache holds for a source (null: it does not exist); undefined
   * when there is no such cache (Secrets are never watched): the resync then reads the source.
   */
  cached?(kind: SourceKind, namespace: string, name: string): string | null | undefined;
  log: Logger;
}

/**
 * Reads the keys specs name and remembers, per resource, the version of each source it read, so
 * that a changed source re-queues exactly the resources reading it: at once when a watch reports
 * it (`changed`), else at the next resync (`recheck`). Entries go with their resource (`forget`).
 */
export class KeySources {
  private readonly o: KeySourcesOptions;
  /** Per resource (queue key): each source it read (source key) and its version then (null: missing). */
  private readonly versions = new Map<string, Map<string, string | null>>();
  /** Per source key: the resources that read it. */
  private readonly readers = new Map<string, Set<string>>();
  /** Per source key: its read in flight, which every resource asking meanwhile shares (readShared). */
  private readonly reading = new Map<string, Promise<SourceData | undefined>>();
  /** Small watched ConfigMaps as last read, answered while the watch shows that version (readShared). */
  private readonly kept = new BoundedMap<SourceData>(KEPT_SOURCES);

  constructor(options: KeySourcesOptions) {
    this.o = options;
  }

  /**
   * The value of each key, by spec field, and whether a source changed since the resource last read
   * it; a missing source or key waits (a Blocked outcome naming the field), and is looked at again
   * when the source changes or after `retryMs`.
   */
  async values(
    resource: string,
    namespace: string,
    sources: readonly KeySource[],
    retryMs = 60_000,
  ): Promise<{ values: Record<string, Buffer>; changed: boolean }> {
    const before = this.versions.get(resource);
    const read = new Map<string, SourceData | undefined>();
    const seen = new Map<string, string | null>();
    try {
      for (const s of sources) {
        const key = sourceKey(s.kind, namespace, s.name);
        if (read.has(key)) continue;
        const data = await this.readShared(key, s.kind, namespace, s.name);
        read.set(key, data);
        seen.set(key, data?.resourceVersion ?? null);
      }
    } finally {
      this.remember(resource, seen);
    }
    const out: Record<string, Buffer> = {};
    for (const s of sources) {
      const data = read.get(sourceKey(s.kind, namespace, s.name));
      if (!data) {
        const reason = s.kind === "Secret" ? Reason.SecretNotFound : Reason.ConfigMapNotFound;
        throw blocked(
          reason,
          `spec.${sourceField(s, "name")}: ${s.kind} ${s.name} not found in namespace ${namespace}`,
          retryMs,
        );
      }
      const value = data.data[s.key];
      if (value === undefined) {
        const reason = s.kind === "Secret" ? Reason.SecretKeyMissing : Reason.ConfigMapKeyMissing;
        // Key names only: never a value.
        const keys = Object.keys(data.data).sort();
        const has =
          keys.length > 0
            ? `it has ${keys.slice(0, 10).join(", ")}${keys.length > 10 ? ", ..." : ""}`
            : "it is empty";
        throw blocked(
          reason,
          `spec.${sourceField(s)}: ${s.kind} ${s.name} has no key ${s.key} (${has})`,
          retryMs,
        );
      }
      out[s.field] = value;
    }
    const changed = before !== undefined && [...seen].some(([key, version]) => before.get(key) !== version);
    return { values: out, changed };
  }

  /** A watch saw a source change (resourceVersion undefined: deleted): its readers that read another version are re-queued. */
  changed(kind: SourceKind, namespace: string, name: string, resourceVersion: string | undefined): void {
    const key = sourceKey(kind, namespace, name);
    // A read asked from now on must not join one sent before the change.
    this.reading.delete(key);
    this.kept.delete(key);
    for (const resource of this.readers.get(key) ?? [])
      if (this.versions.get(resource)?.get(key) !== (resourceVersion ?? null)) this.o.enqueue(resource);
  }

  /**
   * The resync's check: every source read is looked up again (from a watch's cache, else with a
   * `get`), and the resources that read another version are re-queued. Returns how many were.
   */
  async recheck(): Promise<number> {
    let queued = 0;
    for (const [key, resources] of [...this.readers]) {
      const [kind, namespace, name] = key.split("/") as [SourceKind, string, string];
      let version = this.o.cached?.(kind, namespace, name);
      if (version === undefined) {
        try {
          version = (await this.o.read(kind, namespace, name))?.resourceVersion ?? null;
        } catch (error) {
          this.o.log.warn({ err: error, kind, namespace, name }, "could not re-check a source");
          continue;
        }
      }
      for (const resource of resources) {
        if (this.versions.get(resource)?.get(key) === version) continue;
        queued++;
        this.o.enqueue(resource);
      }
    }
    return queued;
  }

  /**
   * One read of a source for all the resources asking while it is in flight, and none while the
   * watch shows a small ConfigMap at the version last read: an operator start reconciles hundreds
   * of resources reading one ConfigMap at once, and a read each (an apiserver call each) spread
   * their service reads over several batched index calls. An answer given just before a change's
   * watch event is seen is the old version, as a read of its own sent then would be: the watch's
   * `changed`, or the resync's `recheck`, re-queues its reader.
   */
  private readShared(key: string, kind: SourceKind, namespace: string, name: string) {
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.resourceVersion === this.o.cached?.(kind, namespace, name))
      return Promise.resolve(kept);
    let read = this.reading.get(key);
    if (read === undefined) {
      const sent = this.o.read(kind, namespace, name).then(
        (data) => {
          if (this.reading.get(key) === sent) this.reading.delete(key);
          if (data && kind === "ConfigMap" && this.o.cached && bytes(data) <= KEPT_MAX_BYTES)
            this.kept.set(key, data);
          return data;
        },
        (error: unknown) => {
          if (this.reading.get(key) === sent) this.reading.delete(key);
          throw error;
        },
      );
      read = sent;
      this.reading.set(key, read);
    }
    return read;
  }

  /** The resource is gone: nothing to re-queue for it. */
  forget(resource: string): void {
    this.remember(resource, new Map());
  }

  /** How many resources are remembered (tests of the map's hygiene). */
  get size(): number {
    return this.versions.size;
  }

  private remember(resource: string, seen: Map<string, string | null>): void {
    for (const key of this.versions.get(resource)?.keys() ?? []) {
      if (seen.has(key)) continue;
      const readers = this.readers.get(key);
      readers?.delete(resource);
      if (readers?.size === 0) this.readers.delete(key);
    }
    if (seen.size === 0) {
      this.versions.delete(resource);
      return;
    }
    this.versions.set(resource, seen);
    for (const key of seen.keys()) {
      let readers = this.readers.get(key);
      if (!readers) {
        readers = new Set();
        this.readers.set(key, readers);
      }
      readers.add(resource);
    }
  }
}

function blocked(reason: WaitingReason, message: string, retryMs: number): BlockedError {
  return new BlockedError(reason, message, retryMs);
}

const bytes = (data: SourceData) => Object.values(data.data).reduce((n, b) => n + b.length, 0);
