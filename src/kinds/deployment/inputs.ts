import { formatInputValue, parseInputValue } from "../../service-model/index.ts";
import type { TableDesired, TableObserved } from "../shared/table-kind.ts";

/** A deployment's inputs by name, as its representation lists them; null when it shows none (another view). */
export function inputsOf(raw: unknown): Record<string, string> | null {
  if (!Array.isArray(raw)) return null;
  return Object.fromEntries(raw.map((i: { name: string; value: string }) => [i.name, i.value]));
}

/** One spelling per value so that `blank`/`text:` and the ignore spellings compare equal. */
export function normalizeInput(name: string, value: string): string {
  const parsed = parseInputValue(name, value, "2.0");
  if (!parsed.ok) return value;
  const v = parsed.value;
  if (v.type === "inherit") return "ignore";
  if (v.type === "text" && v.value === "") return "blank";
  return formatInputValue(v);
}

/**
 * The inputs row's comparison: the desired inputs whose value differs from what the deployment
 * holds (what multi_update sends), and those values. Names the deployment does not have are not
 * compared: multi_update ignores them (see `deploymentWarnings`).
 */
export function changedInputs(want: unknown, have: unknown) {
  const current = (have ?? {}) as Record<string, string>;
  const desired: Record<string, string> = {};
  for (const [name, value] of Object.entries(want as Record<string, string>)) {
    const now = current[name];
    if (now !== undefined && normalizeInput(name, now) !== normalizeInput(name, value)) desired[name] = value;
  }
  if (Object.keys(desired).length === 0) return undefined;
  const observed = Object.fromEntries(Object.entries(current).filter(([name]) => name in desired));
  return { desired, observed };
}

/** Most input names a warning lists. */
const NAMES_LISTED = 10;

export const Message = {
  inputsIgnored: (names: string[]) =>
    `spec.inputs: the deployment has no input named ${
      names.length <= NAMES_LISTED
        ? names.join(", ")
        : `${names.slice(0, NAMES_LISTED).join(", ")} and ${names.length - NAMES_LISTED} more`
    }, and the service ignores inputs a deployment does not have; check the names, or remove them from spec.inputs`,
} as const;

/**
 * Pure: the spec's input names the deployment does not have, which multi_update ignores (spec
 * 4.13): they never take effect, and the user must hear it (ManagedKind.warnings).
 */
export function deploymentWarnings(desired: TableDesired, observed: TableObserved): string[] {
  const want = desired.inputs as Record<string, string> | undefined;
  const have = observed.inputs as Record<string, string> | null | undefined;
  if (!want || !have) return [];
  const names = Object.keys(want)
    .filter((name) => !(name in have))
    .sort();
  return names.length === 0 ? [] : [Message.inputsIgnored(names)];
}
