import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";

/** One object of the input, and where it came from (for messages). */
export interface Manifest {
  source: string;
  object: Record<string, unknown>;
}

const KUSTOMIZATIONS = ["kustomization.yaml", "kustomization.yml", "Kustomization"];
/** What plan reads of a kustomization; anything else needs kustomize itself. */
const KUSTOMIZE_FIELDS = new Set(["apiVersion", "kind", "resources", "namespace"]);
const MANIFEST_FILE = /\.(ya?ml|json)$/;
/**
 * How far a document's aliases may expand (the yaml package's own default, made explicit): a few
 * lines of anchors and aliases can otherwise expand to billions of nodes (a "billion laughs").
 */
export const MAX_ALIAS_COUNT = 100;

/** Manifests that cannot be read: one line naming the file (and document) and the rule. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/** The first line of a message: the yaml package's messages go on with the offending source lines. */
const firstLine = (message: string) => message.split("\n", 1)[0]!.replace(/:$/, "");

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A document's value, refusing an alias bomb with its own message. */
function documentValue(doc: ReturnType<typeof parseAllDocuments>[number], where: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith("Excessive alias count"))
      throw new ManifestError(
        `${where}: its aliases expand past ${MAX_ALIAS_COUNT} nodes (a YAML alias bomb?): not read`,
      );
    throw new ManifestError(`${where}: ${firstLine(message)}`);
  }
}

/** The objects of a YAML or JSON text (several documents, `kind: List` expanded). */
export function parseManifests(text: string, source: string): Manifest[] {
  const out: Manifest[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const where = `-f ${source}: document ${i + 1}`;
    if (doc.errors.length > 0) throw new ManifestError(`${where}: ${firstLine(doc.errors[0]!.message)}`);
    const value = documentValue(doc, where);
    if (value === null || value === undefined) return;
    if (!isObject(value)) throw new ManifestError(`${where} is not an object (a Kubernetes manifest)`);
    if (value.kind === "List" && Array.isArray(value.items)) {
      for (const [j, item] of value.items.entries()) {
        if (!isObject(item)) throw new ManifestError(`${where}: items[${j}] is not an object`);
        out.push({ source: `${source}#${i + 1}.items[${j}]`, object: item });
      }
    } else out.push({ source: `${source}#${i + 1}`, object: value });
  });
  return out;
}

/** Why a file or directory could not be read, in one line (never a stack). */
function unreadable(path: string, error: unknown): ManifestError {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ENOENT: "no such file or directory",
    EACCES: "permission denied",
    EISDIR: "is a directory",
    ENOTDIR: "is neither a file nor a directory",
    ELOOP: "too many symbolic links (a loop?)",
  };
  const reason = (code && reasons[code]) ?? firstLine(error instanceof Error ? error.message : String(error));
  return new ManifestError(`-f ${path}: ${reason}`);
}

/** A manifest file's text; any failure a ManifestError. */
const readText = (path: string) =>
  readFile(path, "utf8").catch((error: unknown) => {
    throw unreadable(path, error);
  });

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
  const [doc] = parseManifests(await readText(path), relative(root, path) || path);
  const k = (doc?.object ?? {}) as { resources?: unknown; namespace?: unknown };
  for (const field of Object.keys(k))
    if (!KUSTOMIZE_FIELDS.has(field))
      throw new ManifestError(
        `-f ${dir}: ${relative(root, path) || path} uses "${field}", which plan does not read; ` +
          `run: kubectl kustomize ${dir} | svc-operator plan -f -`,
      );
  const out: Manifest[] = [];
  const resources = k.resources ?? [];
  if (!Array.isArray(resources))
    throw new ManifestError(`-f ${dir}: ${relative(root, path) || path}: resources must be a list`);
  for (const resource of resources as unknown[]) {
    if (typeof resource !== "string" || /^[a-z]+:\/\//i.test(resource))
      throw new ManifestError(`-f ${dir}: resource ${String(resource)} is not a local file or directory`);
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
  if (seen.has(path)) throw new ManifestError(`-f ${root}: ${relative(root, path)} is included twice`);
  seen.add(path);
  const info = await stat(path).catch((error: unknown) => {
    throw unreadable(path, error);
  });
  const name = relative(root, path) || path;
  if (info.isFile()) return parseManifests(await readText(path), name);
  if (!info.isDirectory()) throw new ManifestError(`-f ${path}: is neither a file nor a directory`);
  const kustomization = await kustomizationIn(path);
  if (kustomization) return readKustomization(kustomization, root, seen);
  // A plain directory: its manifest files, as `kubectl apply -f DIR` takes them (not recursive).
  const files = await readdir(path).catch((error: unknown) => {
    throw unreadable(path, error);
  });
  const out: Manifest[] = [];
  for (const f of files.filter((f) => MANIFEST_FILE.test(f)).sort())
    out.push(...parseManifests(await readText(join(path, f)), relative(root, join(path, f)) || f));
  return out;
}

/**
 * `-f FILE|DIR|-`: the objects to plan, in input order. Anything that cannot be read or parsed
 * is a ManifestError: one line, whatever failed.
 */
export async function readManifests(file: string, stdin: () => Promise<string>): Promise<Manifest[]> {
  const text = file === "-" ? await stdin() : undefined;
  try {
    return text === undefined ? await readPath(file, file, new Set()) : parseManifests(text, "stdin");
  } catch (error) {
    if (error instanceof ManifestError) throw error;
    throw new ManifestError(
      `-f ${file}: ${firstLine(error instanceof Error ? error.message : String(error))}`,
    );
  }
}
