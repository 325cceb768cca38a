import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { Manifest } from "./apply.ts";

export class SampleError extends Error {
  override name = "SampleError";
}

/**
 * Reads every *.yaml of a samples directory (file name order: parents first), all documents.
 * Each object must be a cloud.svc.io kind the operator serves; the error names file and field.
 */
export async function loadSamples(
  dir: string,
  kinds: ReadonlySet<string>,
  group: string,
): Promise<Manifest[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch (error) {
    throw new SampleError(
      `${dir}: cannot read the samples directory (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const out: Manifest[] = [];
  for (const file of files) {
    const docs = parseAllDocuments(await readFile(join(dir, file), "utf8"));
    for (const [index, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
      const where = `${file} (document ${index + 1})`;
      if (doc.errors.length > 0) throw new SampleError(`${where}: ${doc.errors[0]!.message}`);
      const value = doc.toJS() as Partial<Manifest> | null;
      if (value === null || value === undefined) continue;
      if (typeof value !== "object" || Array.isArray(value))
        throw new SampleError(`${where}: must be a mapping`);
      if (typeof value.apiVersion !== "string" || !value.apiVersion.startsWith(`${group}/`))
        throw new SampleError(`${where}: apiVersion must be ${group}/<version>`);
      if (typeof value.kind !== "string" || !kinds.has(value.kind))
        throw new SampleError(
          `${where}: kind must be one of ${[...kinds].join(", ")} (got ${String(value.kind)})`,
        );
      if (typeof value.metadata?.name !== "string" || value.metadata.name === "")
        throw new SampleError(`${where}: metadata.name is required`);
      out.push(value as Manifest);
    }
  }
  return out;
}
