import type { KubeConfig } from "@kubernetes/client-node";
import {
  ConflictError,
  GoneError,
  KubeHttpError,
  type KubeWriter,
  type MetadataPatch,
  type ObjectRef,
  RawKube,
} from "../client/index.ts";
import type { ManagedObject } from "../sdk/index.ts";
import { GROUP, type SourceData, type SourceKind, sourceData, VERSION } from "../sdk/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";
import { withoutManagedFields } from "./cache-slim.ts";

const MERGE_PATCH = "application/merge-patch+json";

/**
 * The reconciler's writes as JSON merge patches (custom resources reject strategic
 * merge): 409 -> ConflictError, 404 -> GoneError. Uses RawKube: these calls are the
 * operator's hot path.
 */
export class KubeApiWriter implements KubeWriter {
  private readonly raw: RawKube;

  /** `problems`: where failures of the environment (RBAC, the network) are logged, once per cause. */
  constructor(kc: KubeConfig, problems?: ProblemLog) {
    this.raw = new RawKube(kc, problems);
  }

  patchMetadata(ref: ObjectRef, patch: MetadataPatch, resourceVersion?: string): Promise<ManagedObject> {
    const metadata: Record<string, unknown> = { ...patch };
    if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
    return this.patch(ref, "", { metadata });
  }

  patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<ManagedObject> {
    return this.patch(ref, "/status", { status });
  }

  async patchUnread(
    ref: ObjectRef,
    patch: { metadata: MetadataPatch } | { status: Record<string, unknown> },
  ): Promise<void> {
    await this.mapped(ref, () =>
      this.raw.send("PATCH", this.path(ref, "status" in patch ? "/status" : ""), patch, MERGE_PATCH),
    );
  }

  async readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined> {
    try {
      const secret = await this.raw.call<{
        data?: Record<string, string>;
        stringData?: Record<string, string>;
      }>("GET", `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`);
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(secret.data ?? {}))
        out[k] = Buffer.from(v, "base64").toString("utf8");
      for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] ??= v;
      return out;
    } catch (error) {
      if (error instanceof KubeHttpError && error.code === 404) return undefined;
      throw error;
    }
  }

  /** A ConfigMap's or Secret's data as bytes (key-sources.ts); undefined when it does not exist. */
  async readData(kind: SourceKind, namespace: string, name: string): Promise<SourceData | undefined> {
    const plural = kind === "Secret" ? "secrets" : "configmaps";
    try {
      const object = await this.raw.call<Parameters<typeof sourceData>[0]>(
        "GET",
        `/api/v1/namespaces/${encodeURIComponent(namespace)}/${plural}/${encodeURIComponent(name)}`,
      );
      return sourceData(object, kind);
    } catch (error) {
      if (error instanceof KubeHttpError && error.code === 404) return undefined;
      throw error;
    }
  }

  close(): Promise<void> {
    return this.raw.close();
  }

  private path(ref: ObjectRef, sub: string): string {
    return (
      `/apis/${GROUP}/${VERSION}/namespaces/${encodeURIComponent(ref.namespace)}/${ref.plural}/` +
      `${encodeURIComponent(ref.name)}${sub}`
    );
  }

  private patch(ref: ObjectRef, sub: string, body: unknown): Promise<ManagedObject> {
    // The reconcile holds the answer while it goes on: without managedFields, as the cache holds it.
    return this.mapped(ref, async () =>
      withoutManagedFields(
        await this.raw.call<ManagedObject>("PATCH", this.path(ref, sub), body, MERGE_PATCH),
      ),
    );
  }

  /** 409 -> ConflictError, 404 -> GoneError. */
  private async mapped<T>(ref: ObjectRef, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof KubeHttpError) {
        if (error.code === 409)
          throw new ConflictError(`${ref.kind} ${ref.namespace}/${ref.name} changed meanwhile`, {
            cause: error,
          });
        if (error.code === 404)
          throw new GoneError(`${ref.kind} ${ref.namespace}/${ref.name} not found`, { cause: error });
      }
      throw error;
    }
  }
}
