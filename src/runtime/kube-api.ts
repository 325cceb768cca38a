import { ApiException, type CoreV1Api, type CustomObjectsApi } from "@kubernetes/client-node";
import { mergePatchOptions } from "./events.ts";
import type { ManagedObject } from "./kind.ts";
import { ConflictError, GoneError, type KubeWriter, type MetadataPatch, type ObjectRef } from "./kube.ts";
import { GROUP, VERSION } from "./names.ts";

/** KubeWriter on client-node: JSON merge patches, 409 -> ConflictError, 404 -> GoneError. */
export class KubeApiWriter implements KubeWriter {
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;

  constructor(custom: CustomObjectsApi, core: CoreV1Api) {
    this.custom = custom;
    this.core = core;
  }

  async patchMetadata(
    ref: ObjectRef,
    patch: MetadataPatch,
    resourceVersion?: string,
  ): Promise<ManagedObject> {
    const metadata: Record<string, unknown> = { ...patch };
    if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
    return this.wrap(ref, () =>
      this.custom.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: VERSION,
          namespace: ref.namespace,
          plural: ref.plural,
          name: ref.name,
          body: { metadata },
        },
        mergePatchOptions(),
      ),
    );
  }

  async patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<ManagedObject> {
    return this.wrap(ref, () =>
      this.custom.patchNamespacedCustomObjectStatus(
        {
          group: GROUP,
          version: VERSION,
          namespace: ref.namespace,
          plural: ref.plural,
          name: ref.name,
          body: { status },
        },
        mergePatchOptions(),
      ),
    );
  }

  async readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined> {
    try {
      const secret = await this.core.readNamespacedSecret({ namespace, name });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(secret.data ?? {}))
        out[k] = Buffer.from(v, "base64").toString("utf8");
      for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] ??= v;
      return out;
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  }

  private async wrap(ref: ObjectRef, call: () => Promise<unknown>): Promise<ManagedObject> {
    try {
      return (await call()) as ManagedObject;
    } catch (error) {
      if (error instanceof ApiException) {
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
