import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { type ApplyOptions, applyManifest, type Collection, type Manifest } from "./apply.ts";
import { KubeError, type KubeHttp } from "./kube-http.ts";

/**
 * Core kinds that may sit beside the samples: what a sample reads (a StoredScriptAttachment's
 * content in a ConfigMap). Applied with them, in file order, but not samples themselves: they
 * have no Ready to wait for.
 */
export const SUPPORT_KINDS: ReadonlyMap<string, Collection> = new Map([
  ["ConfigMap", { plural: "configmaps", namespaced: true }],
]);

/** Whether a manifest is one of the supporting core objects (SUPPORT_KINDS), not a sample to wait for. */
export function isSupport(m: Pick<Manifest, "apiVersion" | "kind">): boolean {
  return m.apiVersion === "v1" && SUPPORT_KINDS.has(m.kind);
}

export class SampleError extends Error {
  override name = "SampleError";
}

/** One document of a samples file, with where it came from for messages. */
export interface Sample {
  manifest: Manifest;
  /** The file's path (the samples directory joined with its name). */
  file: string;
  /** 1-based, counting every document of the file as an editor does. */
  document: number;
}

/** `FILE (document N, Kind/name)`: how every message names a sample. */
export function describeSample(s: Sample): string {
  return `${s.file} (document ${s.document}, ${s.manifest.kind}/${s.manifest.metadata.name})`;
}

/**
 * Reads every *.yaml of a samples directory (file name order: parents first), all documents.
 * Each object must be a cloud.svc.io kind the operator serves, or a supporting core object
 * (SUPPORT_KINDS); the error names file and field.
 */
export async function loadSampleDocuments(
  dir: string,
  kinds: ReadonlySet<string>,
  group: string,
): Promise<Sample[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch (error) {
    throw new SampleError(
      `${dir}: cannot read the samples directory (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const out: Sample[] = [];
  for (const name of files) {
    const file = join(dir, name);
    const docs = parseAllDocuments(await readFile(file, "utf8"));
    for (const [index, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
      const where = `${file} (document ${index + 1})`;
      if (doc.errors.length > 0) throw new SampleError(`${where}: ${doc.errors[0]!.message}`);
      const value = doc.toJS() as Partial<Manifest> | null;
      if (value === null || value === undefined) continue;
      if (typeof value !== "object" || Array.isArray(value))
        throw new SampleError(`${where}: must be a mapping`);
      const support = isSupport(value as Manifest);
      if (!support && (typeof value.apiVersion !== "string" || !value.apiVersion.startsWith(`${group}/`)))
        throw new SampleError(
          `${where}: apiVersion must be ${group}/<version> (or v1 for a ${[...SUPPORT_KINDS.keys()].join(", ")})`,
        );
      if (!support && (typeof value.kind !== "string" || !kinds.has(value.kind)))
        throw new SampleError(
          `${where}: kind must be one of ${[...kinds].join(", ")} (got ${String(value.kind)})`,
        );
      if (typeof value.metadata?.name !== "string" || value.metadata.name === "")
        throw new SampleError(`${where}: metadata.name is required`);
      out.push({ manifest: value as Manifest, file, document: index + 1 });
    }
  }
  return out;
}

/** The manifests of a samples directory (see loadSampleDocuments). */
export async function loadSamples(
  dir: string,
  kinds: ReadonlySet<string>,
  group: string,
): Promise<Manifest[]> {
  return (await loadSampleDocuments(dir, kinds, group)).map((s) => s.manifest);
}

interface StatusBody {
  message?: string;
  details?: { causes?: { field?: string; message?: string }[] };
}

/** The server's refusal as `field: rule` (a 422's causes name the field), else its message. */
function refusal(error: KubeError): string {
  const body = (typeof error.body === "object" ? error.body : {}) as StatusBody | undefined;
  const causes = body?.details?.causes ?? [];
  if (causes.length > 0)
    return causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join("; ");
  return body?.message ?? error.message;
}

/**
 * A dry run of every sample as applySamples would write it: a document the cluster refuses (its
 * CRD's schema, an unknown field) is named by file, document and field, all of them at once.
 */
export async function checkSamples(
  kube: KubeHttp,
  samples: Sample[],
  collections: ReadonlyMap<string, Collection>,
): Promise<void> {
  const refused: string[] = [];
  for (const s of samples) {
    try {
      await applyManifest(kube, s.manifest, collectionOf(s.manifest, collections), { dryRun: true });
    } catch (error) {
      // 400 (an unknown field) and 422 (the schema) are the document's; anything else is not.
      if (!(error instanceof KubeError) || (error.status !== 400 && error.status !== 422)) throw error;
      refused.push(`${describeSample(s)}: ${refusal(error)}`);
    }
  }
  if (refused.length > 0)
    throw new SampleError(
      [
        `the cluster refused ${refused.length} of ${samples.length} samples, so none was applied; fix them, or pass --samples DIR or --no-samples:`,
        ...refused.map((line) => `  ${line}`),
      ].join("\n"),
    );
}

/** Applies the samples as `kubectl apply` does (see applyManifest), in order. */
export async function applySamples(
  kube: KubeHttp,
  samples: Sample[],
  collections: ReadonlyMap<string, Collection>,
  options: Pick<ApplyOptions, "extraAnnotations"> = {},
): Promise<void> {
  for (const s of samples)
    await applyManifest(kube, s.manifest, collectionOf(s.manifest, collections), options);
}

function collectionOf(m: Manifest, collections: ReadonlyMap<string, Collection>): Collection {
  return (isSupport(m) ? SUPPORT_KINDS.get(m.kind) : collections.get(m.kind))!;
}
