import {
  ConflictError,
  GoneError,
  type KubeWriter,
  type MetadataPatch,
  type ObjectRef,
  type ObjectStore,
} from "../client/index.ts";
import type { ManagedObject } from "../sdk/index.ts";

/**
 * An in-memory apiserver for reconciler tests: resourceVersion conflicts, status
 * kept apart from metadata, finalizer-held deletion. Not a test file so that kind
 * modules can reuse it.
 */
export class FakeKube implements KubeWriter, ObjectStore {
  readonly objects = new Map<string, ManagedObject>();
  readonly secrets = new Map<string, Record<string, string>>();
  readonly writes: { op: "metadata" | "status"; key: string; patch: unknown }[] = [];
  private rv = 1;
  /** Called after every write with the object as stored (or undefined once deleted). */
  onChange?: (kind: string, object: ManagedObject | undefined, old: ManagedObject | undefined) => void;

  private k(kind: string, namespace: string, name: string): string {
    return `${kind}/${namespace}/${name}`;
  }

  put(kind: string, object: ManagedObject): ManagedObject {
    const key = this.k(kind, object.metadata.namespace, object.metadata.name);
    const old = this.objects.get(key);
    const stored: ManagedObject = structuredClone({
      ...object,
      kind,
      metadata: {
        ...object.metadata,
        uid: old?.metadata.uid ?? `uid-${this.rv}`,
        generation: old
          ? (old.metadata.generation ?? 1) +
            (JSON.stringify(old.spec) === JSON.stringify(object.spec) ? 0 : 1)
          : 1,
        resourceVersion: String(++this.rv),
      },
      status: object.status ?? old?.status,
    });
    this.objects.set(key, stored);
    this.onChange?.(kind, stored, old);
    return stored;
  }

  /** kubectl delete: sets deletionTimestamp, or removes the object when no finalizer holds it. */
  delete(kind: string, namespace: string, name: string): void {
    const key = this.k(kind, namespace, name);
    const old = this.objects.get(key);
    if (!old) return;
    if ((old.metadata.finalizers ?? []).length === 0) {
      this.objects.delete(key);
      this.onChange?.(kind, undefined, old);
      return;
    }
    const next = structuredClone(old);
    next.metadata.deletionTimestamp = new Date().toISOString();
    next.metadata.resourceVersion = String(++this.rv);
    this.objects.set(key, next);
    this.onChange?.(kind, next, old);
  }

  get(kind: string, namespace: string, name: string): ManagedObject | undefined {
    return this.objects.get(this.k(kind, namespace, name));
  }

  list(kind: string): readonly ManagedObject[] {
    return [...this.objects.entries()].filter(([k]) => k.startsWith(`${kind}/`)).map(([, v]) => v);
  }

  async patchMetadata(
    ref: ObjectRef,
    patch: MetadataPatch,
    resourceVersion?: string,
  ): Promise<ManagedObject> {
    const key = this.k(ref.kind, ref.namespace, ref.name);
    const old = this.objects.get(key);
    if (!old) throw new GoneError(`${key} not found`);
    if (resourceVersion !== undefined && resourceVersion !== old.metadata.resourceVersion) {
      throw new ConflictError(`${key}: resourceVersion ${resourceVersion} is stale`);
    }
    this.writes.push({ op: "metadata", key, patch });
    const next = structuredClone(old);
    if (patch.annotations) {
      const a = { ...(next.metadata.annotations ?? {}) };
      for (const [k, v] of Object.entries(patch.annotations)) {
        if (v === null) delete a[k];
        else a[k] = v;
      }
      next.metadata.annotations = a;
    }
    if (patch.finalizers) next.metadata.finalizers = patch.finalizers;
    next.metadata.resourceVersion = String(++this.rv);
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      this.objects.delete(key);
      this.onChange?.(ref.kind, undefined, old);
      return next;
    }
    this.objects.set(key, next);
    this.onChange?.(ref.kind, next, old);
    return next;
  }

  async patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<ManagedObject> {
    const key = this.k(ref.kind, ref.namespace, ref.name);
    const old = this.objects.get(key);
    if (!old) throw new GoneError(`${key} not found`);
    this.writes.push({ op: "status", key, patch: status });
    const next = structuredClone(old);
    next.status = applyMergePatch(next.status ?? {}, status) as ManagedObject["status"];
    next.metadata.resourceVersion = String(++this.rv);
    this.objects.set(key, next);
    this.onChange?.(ref.kind, next, old);
    return next;
  }

  async patchUnread(
    ref: ObjectRef,
    patch: { metadata: MetadataPatch } | { status: Record<string, unknown> },
  ): Promise<void> {
    if ("status" in patch) await this.patchStatus(ref, patch.status);
    else await this.patchMetadata(ref, patch.metadata);
  }

  async readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined> {
    return this.secrets.get(`${namespace}/${name}`);
  }
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
