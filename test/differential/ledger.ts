import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

/**
 * The differences that stay between the devcluster and kube-apiserver, as docs/devcluster.md lists
 * them (the first column of its table "Differences that stay"): the one source of that list,
 * which the suite asserts exactly.
 */
export function listedDifferences(): string[] {
  const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "devcluster.md"), "utf8");
  const section = doc.split(/^### Differences that stay$/m)[1]?.split(/^#/m)[0];
  if (section === undefined) throw new Error("docs/devcluster.md has no section 'Differences that stay'");
  // Each row's first cell holds one or more keys, each in backquotes.
  return [...section.matchAll(/^\| (`[^|]+`) \|/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/`([^`]+)`/g)].map((k) => k[1]!),
  );
}

/** Where two values differ: JSON paths with array indexes as `[]`, sorted, each once. */
export function differingPaths(a: unknown, b: unknown, path = ""): string[] {
  return [...new Set(concreteDifferences(a, b, path).map((p) => p.replace(/\[\d+\]/g, "[]")))].sort();
}

/** Where two values differ, with array indexes. */
function concreteDifferences(a: unknown, b: unknown, path: string): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const container = (v: unknown) =>
    typeof v === "object" && v !== null ? (Array.isArray(v) ? "array" : "object") : "";
  if (container(a) === "" || container(a) !== container(b)) return [path || "."];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${path}.length`];
    return a.flatMap((v, i) => concreteDifferences(v, b[i], `${path}[${i}]`));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
  return keys.flatMap((k) => concreteDifferences(x[k], y[k], path ? `${path}.${k}` : k));
}

/**
 * Whether a listed difference `<id>: <pattern>, <pattern>` covers what request `id` answered
 * otherwise: every differing path matches one of its patterns (`*` stands for any text).
 */
function covers(listed: string, id: string, paths: string[]): boolean {
  if (!listed.startsWith(`${id}: `)) return false;
  const patterns = listed
    .slice(id.length + 2)
    .split(", ")
    .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`));
  return paths.every((path) => patterns.some((p) => p.test(path)));
}

/**
 * Counts the answers compared and alike and keeps the listed differences met. An answer that
 * differs where the list does not say so fails its test.
 */
export class Ledger {
  compared = 0;
  /** Of those compared, kubectl's commands (the rest are raw HTTP answers). */
  kubectl = 0;
  alike = 0;
  readonly met = new Set<string>();
  private readonly listed: string[];

  constructor(listed: string[]) {
    this.listed = listed;
  }

  /**
   * Compares two normalised answers to request `id`; throws, showing both sides where they
   * first differ, unless they are alike or differ exactly as a listed difference says.
   */
  expectAlike(id: string, dev: unknown, real: unknown): void {
    this.compared += 1;
    if (id.startsWith("kubectl ")) this.kubectl += 1;
    const paths = differingPaths(dev, real);
    if (paths.length === 0) {
      this.alike += 1;
      return;
    }
    const key = `${id}: ${paths.join(", ")}`;
    const listed = this.listed.find((l) => covers(l, id, paths));
    if (listed !== undefined) {
      this.met.add(listed);
      return;
    }
    throw new Error(`the devcluster answers otherwise: ${key}\n${firstDifference(dev, real)}`);
  }

  /**
   * What only the real server has (resources, groups, paths) beside what both have: none, or
   * exactly a listed difference `<id>: <names>`.
   */
  expectOnlyReal(id: string, names: string[]): void {
    this.compared += 1;
    if (names.length === 0) {
      this.alike += 1;
      return;
    }
    const key = `${id}: ${names.join(" ")}`;
    if (this.listed.includes(key)) {
      this.met.add(key);
      return;
    }
    throw new Error(`only kube-apiserver has, unlisted: ${key}`);
  }
}

function firstDifference(dev: unknown, real: unknown): string {
  const at = concreteDifferences(dev, real, "")[0]!;
  const show = (v: unknown) =>
    JSON.stringify(valueAt(v, at.replace(/\.length$/, "")), null, 1)?.slice(0, 3000);
  return `at ${at}\n--- devcluster:\n${show(dev)}\n--- kube-apiserver:\n${show(real)}`;
}

function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split(/\.|\[|\]/).filter((s) => s !== "")) {
    if (typeof v !== "object" || v === null) return v;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}
