import type { KubeHttp } from "./kube-http.ts";
import { goJson, LAST_APPLIED, threeWayMergePatch, withLastApplied } from "./last-applied.ts";

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

export type ApplyResult = "created" | "configured" | "unchanged";

export interface ApplyOptions {
  /**
   * Annotations written with the object but left out of the applied configuration, as a
   * `kubectl annotate` would be: a later `kubectl apply -f` of the same file keeps them.
   */
  extraAnnotations?: Record<string, string>;
  /** Check with the server (`dryRun=All`: admission, schema, field validation), write nothing. */
  dryRun?: boolean;
  /**
   * Record the last-applied annotation (default true). Off for Secrets: the annotation would
   * repeat their values in plain text, where `kubectl describe` prints them.
   */
  lastApplied?: boolean;
}

/** What `kubectl apply` sends: its client-side-apply field manager, unknown fields refused. */
function query(dryRun: boolean | undefined): string {
  return `?fieldManager=kubectl-client-side-apply&fieldValidation=Strict${dryRun ? "&dryRun=All" : ""}`;
}

function annotationsOf(object: unknown): Record<string, string> {
  const metadata = (object as { metadata?: { annotations?: Record<string, string> } }).metadata;
  return metadata?.annotations ?? {};
}

/**
 * `kubectl apply` (client-side) of one manifest: create it with the last-applied annotation, or,
 * when it exists, send kubectl's three-way merge patch (drop what the previous apply set and this
 * one does not, set what differs from the live object), nothing when nothing changed. So a later
 * `kubectl apply -f` of the same file is silent and says "unchanged". A refusal throws a
 * `KubeError` carrying the server's status and body.
 */
export async function applyManifest(
  kube: KubeHttp,
  m: Manifest,
  c: Collection,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const modified = options.lastApplied === false ? m : withLastApplied(m);
  const extra = options.extraAnnotations ?? {};
  const body = {
    ...modified,
    metadata: { ...modified.metadata, annotations: { ...modified.metadata.annotations, ...extra } },
  };
  const created = await kube.expect("POST", `${collectionPath(m, c)}${query(options.dryRun)}`, body, {
    allowed: [409],
  });
  if (created.status !== 409) return "created";
  const path = collectionPath(m, c, m.metadata.name);
  const current = (await kube.expect("GET", path)).body as Record<string, unknown>;
  // Without our own record, what someone else's apply recorded must not drive deletions.
  const recorded = options.lastApplied === false ? undefined : annotationsOf(current)[LAST_APPLIED];
  let original: Record<string, unknown> | undefined;
  try {
    original = recorded ? JSON.parse(recorded) : undefined;
  } catch {
    original = undefined; // unreadable: kubectl too then deletes nothing
  }
  const patch = threeWayMergePatch(original, modified, current);
  const live = annotationsOf(current);
  const extraChanged = Object.fromEntries(Object.entries(extra).filter(([k, v]) => live[k] !== v));
  if (Object.keys(extraChanged).length > 0) {
    const metadata = (patch.metadata ?? {}) as { annotations?: Record<string, string> };
    patch.metadata = { ...metadata, annotations: { ...metadata.annotations, ...extraChanged } };
  }
  if (Object.keys(patch).length === 0) return "unchanged";
  await kube.expect("PATCH", `${path}${query(options.dryRun)}`, patch, {
    contentType: "application/merge-patch+json",
  });
  return "configured";
}

/**
 * CRDs are replaced whole (a patch would keep schema fields a previous definition had and the
 * annotation may not record): read the resourceVersion, PUT the new definition with the
 * annotation kubectl would write, so `kubectl apply -f crds/` afterwards says "unchanged".
 */
export async function applyCrd(kube: KubeHttp, crd: Manifest): Promise<ApplyResult> {
  const path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const modified = withLastApplied(crd);
  const created = await kube.expect("POST", `${path}${query(false)}`, modified, { allowed: [409] });
  if (created.status !== 409) return "created";
  const current = (await kube.expect("GET", `${path}/${crd.metadata.name}`)).body as Manifest & {
    metadata: { resourceVersion: string };
  };
  const same = (a: unknown, b: unknown) => goJson(a) === goJson(b);
  // The apiserver defaults spec.conversion (strategy None) on a CRD that gives none.
  const spec = modified.spec as Record<string, unknown>;
  const expected = { ...spec, conversion: spec.conversion ?? { strategy: "None" } };
  if (same(current.spec, expected) && same(annotationsOf(current), annotationsOf(modified)))
    return "unchanged";
  await kube.expect("PUT", `${path}/${crd.metadata.name}${query(false)}`, {
    ...modified,
    metadata: { ...modified.metadata, resourceVersion: current.metadata.resourceVersion },
  });
  return "configured";
}
