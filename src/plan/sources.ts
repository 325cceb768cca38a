import pino from "pino";
import type { ClusterReader } from "../inventory/index.ts";
import { KeySources, type SourceData, type SourceKind, sourceData } from "../runtime/sdk/index.ts";
import type { Manifest } from "./manifests.ts";

const PATHS: Record<SourceKind, string> = { ConfigMap: "configmaps", Secret: "secrets" };

/** A Secret manifest's `stringData` as `data` (base64), as the apiserver would store it. */
function stored(object: Record<string, unknown>): Parameters<typeof sourceData>[0] {
  const o = object as { data?: Record<string, string>; stringData?: Record<string, string> };
  if (!o.stringData) return o;
  const encoded = Object.entries(o.stringData).map(([k, v]) => [k, Buffer.from(v).toString("base64")]);
  return { ...o, data: { ...o.data, ...Object.fromEntries(encoded) } };
}

/**
 * The ConfigMap and Secret keys the specs of a plan name (ManagedKind.keySources), read as the
 * operator reads them, with its messages when one is missing: from the manifests of the plan
 * itself (a ConfigMap applied with them), else from the cluster (one GET per object; none with
 * --no-cluster). What is read is compared, never shown.
 */
export function planSources(
  manifests: readonly Manifest[],
  defaultNamespace: string,
  reader: ClusterReader | undefined,
): KeySources {
  const given = new Map<string, SourceData>();
  for (const { object } of manifests) {
    const kind = object.kind as SourceKind;
    if (object.apiVersion !== "v1" || !(kind in PATHS)) continue;
    const meta = (object.metadata ?? {}) as { name?: string; namespace?: string };
    given.set(`${kind}/${meta.namespace ?? defaultNamespace}/${meta.name}`, sourceData(stored(object), kind));
  }
  return new KeySources({
    async read(kind, namespace, name) {
      const own = given.get(`${kind}/${namespace}/${name}`);
      if (own || !reader) return own;
      const object = await reader.get<Record<string, unknown>>(
        `/api/v1/namespaces/${namespace}/${PATHS[kind]}/${name}`,
      );
      return object && sourceData(object, kind);
    },
    enqueue: () => {},
    log: pino({ level: "silent" }),
  });
}
