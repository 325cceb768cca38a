import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";
import { UsageError } from "../cli/command.ts";

/** One object of the input, and where it came from (for messages). */
export interface Manifest {
  source: string;
  object: Record<string, unknown>;
}

const KUSTOMIZATIONS = ["kustomization.yaml", "kustomization.yml", "Kustomization"];
/** What plan reads of a kustomization; anything else needs kustomize itself. */
const KUSTOMIZE_FIELDS = new Set(["apiVersion", "kind", "resources", "namespace"]);
const MANIFEST_FILE = /\.(ya?ml|json)$/;

/** The objects of a YAML or JSON text (several documents, `kind: List` expanded). */
export function parseManifests(text: string, source: string): Manifest[] {
  const out: Manifest[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0)
      throw new UsageError(`-f ${source}: document ${i + 1}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return;
    if (typeof value !== "object" || Array.isArray(value))
      throw new UsageError(`-f ${source}: document ${i + 1} is not an object (a Kubernetes manifest)`);
    const object = value as Record<string, unknown>;
    if (object.kind === "List" && Array.isArray(object.items)) {
      for (const [j, item] of (object.items as Record<string, unknown>[]).entries())
        out.push({ source: `${source}#${i + 1}.items[${j}]`, object: item });
    } else out.push({ source: `${source}#${i + 1}`, object });
  });
  return out;
}

async function kustomizationIn(dir: string): Promise<string | undefined> {
  for (const name of KUSTOMIZATIONS) {
    const path = join(dir, name);
    if (
      await stat(path).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return path;
  }
  return undefined;
}

/**
 * The objects of a kustomize directory, as far as plan reads one: `resources` (files and
 * directories, recursively) and `namespace`. Anything else (patches, generators, components) needs
 * kustomize: the error says how to pipe its output in instead.
 */
async function readKustomization(path: string, root: string, seen: Set<string>): Promise<Manifest[]> {
  const dir = join(path, "..");
  const [doc] = parseManifests(await readFile(path, "utf8"), relative(root, path) || path);
  const k = (doc?.object ?? {}) as { resources?: unknown; namespace?: unknown };
  for (const field of Object.keys(k))
    if (!KUSTOMIZE_FIELDS.has(field))
      throw new UsageError(
        `-f ${dir}: ${relative(root, path) || path} uses "${field}", which plan does not read; ` +
          `run: kubectl kustomize ${dir} | svc-operator plan -f -`,
      );
  const out: Manifest[] = [];
  for (const resource of (k.resources ?? []) as unknown[]) {
    if (typeof resource !== "string" || /^[a-z]+:\/\//i.test(resource))
      throw new UsageError(`-f ${dir}: resource ${String(resource)} is not a local file or directory`);
    out.push(...(await readPath(join(dir, resource), root, seen)));
  }
  if (typeof k.namespace === "string")
    for (const m of out) {
      const metadata = (m.object.metadata ?? {}) as Record<string, unknown>;
      m.object = { ...m.object, metadata: { ...metadata, namespace: k.namespace } };
    }
  return out;
}

async function readPath(path: string, root: string, seen: Set<string>): Promise<Manifest[]> {
  if (seen.has(path)) throw new UsageError(`-f ${root}: ${relative(root, path)} is included twice`);
  seen.add(path);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`-f ${path}: no such file or directory`);
  const name = relative(root, path) || path;
  if (info.isFile()) return parseManifests(await readFile(path, "utf8"), name);
  const kustomization = await kustomizationIn(path);
  if (kustomization) return readKustomization(kustomization, root, seen);
  // A plain directory: its manifest files, as `kubectl apply -f DIR` takes them (not recursive).
  const files = (await readdir(path)).filter((f) => MANIFEST_FILE.test(f)).sort();
  const out: Manifest[] = [];
  for (const f of files)
    out.push(...parseManifests(await readFile(join(path, f), "utf8"), relative(root, join(path, f)) || f));
  return out;
}

/** `-f FILE|DIR|-`: the objects to plan, in input order. */
export async function readManifests(file: string, stdin: () => Promise<string>): Promise<Manifest[]> {
  if (file === "-") return parseManifests(await stdin(), "stdin");
  return readPath(file, file, new Set());
}
