import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ResourceModule, SeedData } from "../simulator/resource.ts";
import { validateSeed } from "../simulator/seed.ts";
import type { Store } from "../simulator/store.ts";

/**
 * The simulator's state across `svc-operator dev --state-dir` restarts: its store, dumped as
 * JSON, is a valid seed. Only the collections the resource modules declare are kept
 * (sessions and access tokens are not: clients log in again).
 */
export async function loadSimulatorState(
  file: string,
  resources: ResourceModule[],
): Promise<SeedData | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return validateSeed(JSON.parse(text), resources, file);
}

export function seedOf(store: Store, resources: ResourceModule[]): Record<string, unknown[]> {
  const known = new Set(resources.flatMap((r) => Object.keys(r.collections)));
  return Object.fromEntries(Object.entries(store.snapshot()).filter(([name]) => known.has(name)));
}

/** Writes atomically (temp file + rename), so a crash leaves the previous state. */
export async function saveSimulatorState(file: string, state: Record<string, unknown[]>): Promise<void> {
  await writeOwnerOnly(file, `${JSON.stringify(state)}\n`);
}

/**
 * Writes a file readable by its owner only (mode 0600: the simulator's state holds the users'
 * passwords and refresh tokens), atomically: a new temporary file, then a rename over the target.
 */
export async function writeOwnerOnly(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  // A leftover temporary file would keep its own mode: start from none ("wx" refuses to reuse one).
  await rm(tmp, { force: true });
  await writeFile(tmp, text, { mode: 0o600, flag: "wx" });
  await rename(tmp, file);
}
