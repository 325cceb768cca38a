import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parseAllDocuments } from "yaml";

/**
 * A small stand-in for `kustomize build` (which cannot be installed here): resolves
 * `resources:` recursively, enforces kustomize's default load restrictor (a file must sit
 * inside the kustomization's own directory; other directories are allowed only as
 * kustomizations, and never one that contains the kustomization itself), and applies the `namespace`, `images` and `labels` transformers.
 */

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

const KUSTOMIZATION_FILES = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/** Kinds the namespace transformer leaves alone. */
export const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
]);

export function kustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
}

/** Every YAML document of a file, failing on any parse error or warning. */
export function parseYamlFile(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  for (const doc of list) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) throw new Error(`${file}: ${problems.map((p) => p.message).join("; ")}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string }[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
}

/** Renders the kustomization in `dir`, as `kustomize build dir` would (for what we use). */
export function render(dir: string, visited: string[] = []): Manifest[] {
  const root = resolve(dir);
  const roots = [...visited, root];
  const file = kustomizationFile(root);
  if (!file) throw new Error(`${root}: no kustomization file`);
  const [k] = parseYamlFile(file) as Kustomization[];
  if (!k) throw new Error(`${file}: empty`);
  const out: Manifest[] = [];
  for (const entry of k.resources ?? []) {
    if (isAbsolute(entry) || /^[a-z]+:\/\//.test(entry))
      throw new Error(`${file}: ${entry}: only local paths`);
    const target = resolve(root, entry);
    if (!existsSync(target)) throw new Error(`${file}: resource ${entry} does not exist`);
    if (statSync(target).isDirectory()) {
      if (roots.some((r) => !relative(target, r).startsWith(".."))) {
        throw new Error(
          `${file}: ${entry} contains a kustomization that includes it (kustomize refuses it: "cycle detected", a base may not hold its overlay)`,
        );
      }
      out.push(...render(target, roots));
      continue;
    }
    const rel = relative(root, target);
    if (rel.startsWith("..")) {
      throw new Error(
        `${file}: ${entry} is outside ${root} (kustomize's load restrictor refuses files outside the root)`,
      );
    }
    for (const doc of parseYamlFile(target)) out.push(doc as Manifest);
  }
  for (const m of out) transform(m, k);
  const seen = new Set<string>();
  for (const m of out) {
    const id = `${m.apiVersion}/${m.kind}/${m.metadata.namespace ?? ""}/${m.metadata.name}`;
    if (seen.has(id)) throw new Error(`${file}: ${id} appears twice (kustomize refuses duplicate ids)`);
    seen.add(id);
  }
  return out;
}

function transform(m: Manifest, k: Kustomization): void {
  if (k.namespace && !CLUSTER_SCOPED.has(m.kind)) m.metadata.namespace = k.namespace;
  for (const { pairs } of k.labels ?? []) m.metadata.labels = { ...m.metadata.labels, ...pairs };
  for (const container of podContainers(m)) {
    for (const image of k.images ?? []) {
      const [name, tag] = splitImage(container.image);
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}:${image.newTag ?? tag ?? "latest"}`;
    }
  }
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.lastIndexOf(":");
  return at > image.lastIndexOf("/") && at !== -1
    ? [image.slice(0, at), image.slice(at + 1)]
    : [image, undefined];
}

interface Container {
  name: string;
  image: string;
  [key: string]: unknown;
}

export function podContainers(m: Manifest): Container[] {
  const spec = (
    m as { spec?: { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } } }
  ).spec?.template?.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
}
