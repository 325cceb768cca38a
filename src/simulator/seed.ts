import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { parseTimestamp } from "./representation.ts";
import type { ResourceModule, SeedData } from "./resource.ts";
import type { Store, StoredObject } from "./store.ts";

/**
 * A timestamp field of a seed record: epoch milliseconds, an ISO 8601 string or the
 * service's `YYYY/MM/DD HH:MM:SS +0000`. Stored as epoch milliseconds.
 */
export const seedTimestamp = z.unknown().transform((value, ctx): number => {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string") {
    const ms = parseTimestamp(value) ?? Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  ctx.addIssue({
    code: "custom",
    message: `${JSON.stringify(value)} is not a timestamp (epoch ms, ISO 8601 or YYYY/MM/DD HH:MM:SS +0000)`,
  });
  return z.NEVER;
});

/** A record id: string or number in YAML, stored as a string. */
export const seedId = z
  .union([z.string().min(1), z.number().int().nonnegative()], {
    error: "must be a non-empty string or a whole number",
  })
  .transform(String);

/** The timestamp every default seed object carries (deterministic seed). */
export const SEED_TIME_MS = Date.UTC(2025, 0, 15, 9, 30, 0);

/** Merges the default seed of every module (in list order). */
export function defaultSeed(resources: ResourceModule[]): SeedData {
  const out: SeedData = {};
  for (const resource of resources) {
    const data = resource.defaultSeed?.() ?? {};
    for (const [name, records] of Object.entries(data)) out[name] = [...(out[name] ?? []), ...records];
  }
  return out;
}

export class SeedError extends Error {
  override name = "SeedError";
}

/** Validates seed data against the modules' collection schemas; the error names the field. */
export function validateSeed(raw: unknown, resources: ResourceModule[], source = "seed"): SeedData {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new SeedError(`${source}: must be a mapping of collection name to a list of records`);
  }
  const schemas = new Map<string, z.ZodType<StoredObject, unknown>>();
  for (const resource of resources) {
    for (const [name, schema] of Object.entries(resource.collections)) schemas.set(name, schema);
  }
  const out: SeedData = {};
  for (const [name, records] of Object.entries(raw as Record<string, unknown>)) {
    const schema = schemas.get(name);
    if (!schema) {
      throw new SeedError(
        `${source}: unknown collection '${name}' (known: ${[...schemas.keys()].sort().join(", ")})`,
      );
    }
    if (!Array.isArray(records)) throw new SeedError(`${source}: ${name} must be a list of records`);
    const list: StoredObject[] = [];
    const ids = new Set<string>();
    records.forEach((record, index) => {
      const parsed = schema.safeParse(record);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
        throw new SeedError(`${source}: ${name}[${index}]${field}: ${issue.message}`);
      }
      if (ids.has(parsed.data.id))
        throw new SeedError(`${source}: ${name}[${index}].id: duplicate id '${parsed.data.id}'`);
      ids.add(parsed.data.id);
      list.push(parsed.data);
    });
    out[name] = list;
  }
  return out;
}

/** Reads a YAML seed file (`--seed FILE`), which replaces the default seed. */
export async function readSeedFile(file: string, resources: ResourceModule[]): Promise<SeedData> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SeedError(
      `${file}: cannot read the seed file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new SeedError(`${file}: not valid YAML (${(error as Error).message.split("\n")[0]})`);
  }
  return validateSeed(raw ?? {}, resources, file);
}

/** Inserts validated seed records (deep copies, so a reset starts from the same data). */
export function loadSeed(store: Store, seed: SeedData, _resources: ResourceModule[]): void {
  for (const [name, records] of Object.entries(seed)) {
    const collection = store.collection(name);
    for (const record of records) collection.insert(structuredClone(record));
  }
}
