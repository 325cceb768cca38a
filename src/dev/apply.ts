import type { KubeHttp } from "./kube-http.ts";

/** What `kubectl apply` needs to know about an object to find its collection. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [key: string]: unknown;
}

/** Where the objects of a kind live; `namespaced` false for cluster-scoped kinds. */
export interface Collection {
  plural: string;
  namespaced: boolean;
}

export function collectionPath(m: Manifest, c: Collection, name?: string): string {
  const [group, version] = m.apiVersion.includes("/") ? m.apiVersion.split("/") : ["", m.apiVersion];
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const ns = c.namespaced ? `/namespaces/${m.metadata.namespace ?? "default"}` : "";
  return `${base}${ns}/${c.plural}${name === undefined ? "" : `/${name}`}`;
}

/**
 * Create, or when it exists bring it to the manifest with a JSON merge patch of everything
 * but status (custom resources reject strategic merge). Returns "created" or "configured".
 */
export async function applyManifest(
  kube: KubeHttp,
  m: Manifest,
  c: Collection,
): Promise<"created" | "configured"> {
  const created = await kube.expect("POST", collectionPath(m, c), m, { allowed: [409] });
  if (created.status !== 409) return "created";
  const { status: _status, ...patch } = m;
  await kube.expect("PATCH", collectionPath(m, c, m.metadata.name), patch, {
    contentType: "application/merge-patch+json",
  });
  return "configured";
}

/**
 * CRDs are replaced whole (a merge patch would keep removed schema fields): read the
 * resourceVersion, PUT the new definition.
 */
export async function applyCrd(kube: KubeHttp, crd: Manifest): Promise<"created" | "configured"> {
  const path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const created = await kube.expect("POST", path, crd, { allowed: [409] });
  if (created.status !== 409) return "created";
  const current = await kube.expect("GET", `${path}/${crd.metadata.name}`);
  const resourceVersion = (current.body as { metadata: { resourceVersion: string } }).metadata
    .resourceVersion;
  await kube.expect("PUT", `${path}/${crd.metadata.name}`, {
    ...crd,
    metadata: { ...crd.metadata, resourceVersion },
  });
  return "configured";
}
