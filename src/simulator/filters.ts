import { parameterError } from "./errors.ts";

/**
 * The filters one index accepts: field name -> how to read the field from a stored object,
 * and whether `==` is a case-insensitive substring match (`partial`) or an exact match.
 */
export type FilterSpec<T> = Record<
  string,
  { partial: boolean; get: (object: T) => string | null | undefined }
>;

export interface CompiledFilter<T> {
  field: string;
  negate: boolean;
  test: (object: T) => boolean;
}

const ENTRY = /^([A-Za-z_][A-Za-z0-9_]*)(==|<>)(.*)$/s;

/**
 * Parses `filter[]=<field>==<value>` / `<field><><value>` entries (several are ANDed).
 * Throws a 400 naming the entry when it is malformed or names a filter the index does not accept.
 */
export function compileFilters<T>(raw: unknown, spec: FilterSpec<T>): CompiledFilter<T>[] {
  if (raw === undefined || raw === null || raw === "") return [];
  const entries: unknown[] = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [null];
  return entries.map((entry) => {
    if (typeof entry !== "string") throw parameterError("filter must be an Array of Strings");
    const m = ENTRY.exec(entry);
    if (!m) throw parameterError(`filter[] '${entry}' must be <field>==<value> or <field><><value>`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    const def = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (!def) {
      const allowed = Object.keys(spec);
      throw parameterError(
        `filter[] '${field}' is not a filter of this index (allowed: ${allowed.length ? allowed.join(", ") : "none"})`,
      );
    }
    const negate = op === "<>";
    const get = def.get;
    let matches: (object: T) => boolean;
    if (def.partial) {
      const needle = value.toLowerCase();
      matches = (object) => (get(object) ?? "").toLowerCase().includes(needle);
    } else {
      matches = (object) => (get(object) ?? "") === value;
    }
    return { field, negate, test: negate ? (object: T) => !matches(object) : matches };
  });
}

/** One straight pass over the objects, keeping those every filter accepts. */
export function applyFilters<T>(objects: Iterable<T>, filters: CompiledFilter<T>[]): T[] {
  const out: T[] = [];
  if (filters.length === 0) {
    for (const object of objects) out.push(object);
    return out;
  }
  outer: for (const object of objects) {
    for (const filter of filters) if (!filter.test(object)) continue outer;
    out.push(object);
  }
  return out;
}
