/**
 * JSONPath as printer columns use it: `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `..name`, slices
 * `[0:2]`, unions `[0,1]` / `['a','b']` and filters `[?(@.type=="Ready")]` (==, !=, <, <=, >, >=, or
 * bare existence). Missing keys yield no result. A path outside this subset throws JsonPathError,
 * which makes the Table fall back to default columns as the apiserver does for an unusable column.
 */

export type Step =
  | { kind: "field"; name: string }
  | { kind: "index"; index: number }
  | { kind: "slice"; start?: number; end?: number; step: number }
  | { kind: "union"; keys: (string | number)[] }
  | { kind: "wildcard" }
  | { kind: "descend" }
  | { kind: "filter"; path: string[]; op?: string; literal?: unknown };

export class JsonPathError extends Error {
  override readonly name = "JsonPathError";
}

function parseLiteral(text: string): unknown {
  const t = text.trim();
  if (/^(['"]).*\1$/s.test(t)) return t.slice(1, -1);
  if (t === "true" || t === "false") return t === "true";
  if (t === "null") return null;
  const n = Number(t);
  if (t !== "" && !Number.isNaN(n)) return n;
  throw new JsonPathError(`unrecognized literal ${t}`);
}

/** Parses a JSONPath such as `.status.conditions[?(@.type=="Ready")].status` (braces optional). */
export function parseJsonPath(expression: string): Step[] {
  let src = expression.trim();
  if (src.startsWith("{") && src.endsWith("}")) src = src.slice(1, -1).trim();
  if (src.startsWith("$")) src = src.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (src.startsWith("..", i)) {
      steps.push({ kind: "descend" });
      i += 1; // the second dot starts the next step
    } else if (c === ".") {
      const m = /^\.([A-Za-z0-9_\-/$]+|\*)/.exec(src.slice(i));
      if (!m) throw new JsonPathError(`invalid field at ${src.slice(i)}`);
      steps.push(m[1] === "*" ? { kind: "wildcard" } : { kind: "field", name: m[1]! });
      i += m[0].length;
    } else if (c === "[") {
      const end = findClose(src, i);
      const inner = src.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === "*") steps.push({ kind: "wildcard" });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: "index", index: Number(inner) });
      else if (/^'[^']*'$|^"[^"]*"$/.test(inner)) steps.push({ kind: "field", name: inner.slice(1, -1) });
      else if (inner.startsWith("?(") && inner.endsWith(")")) steps.push(parseFilter(inner.slice(2, -1)));
      else if (/^-?\d*:-?\d*(:-?\d+)?$/.test(inner)) {
        const [a, b, c] = inner.split(":");
        const num = (x: string | undefined) => (x === undefined || x === "" ? undefined : Number(x));
        steps.push({ kind: "slice", start: num(a), end: num(b), step: num(c) ?? 1 });
      } else if (inner.includes(",")) {
        const keys = inner.split(",").map((k) => {
          const t = k.trim();
          if (/^-?\d+$/.test(t)) return Number(t);
          if (/^(['"]).*\1$/s.test(t)) return t.slice(1, -1);
          throw new JsonPathError(`unsupported union member ${t}`);
        });
        steps.push({ kind: "union", keys });
      } else throw new JsonPathError(`unsupported subscript [${inner}]`);
    } else {
      throw new JsonPathError(`unexpected ${c} in ${expression}`);
    }
  }
  return steps;
}

function findClose(src: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < src.length; i++) {
    const c = src[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  throw new JsonPathError(`unclosed [ in ${src}`);
}

function parseFilter(text: string): Step {
  const m = /^@((?:\.[A-Za-z0-9_\-/$]+)*)\s*(==|!=|<=|>=|<|>)?\s*(.*)$/s.exec(text.trim());
  if (!m) throw new JsonPathError(`unsupported filter ${text}`);
  const path = m[1]!.split(".").filter(Boolean);
  if (!m[2]) return { kind: "filter", path };
  return { kind: "filter", path, op: m[2], literal: parseLiteral(m[3]!) };
}

function get(value: unknown, path: string[]): { found: boolean; value: unknown } {
  let v = value;
  for (const p of path) {
    if (typeof v !== "object" || v === null || Array.isArray(v) || !Object.hasOwn(v, p)) {
      return { found: false, value: undefined };
    }
    v = (v as Record<string, unknown>)[p];
  }
  return { found: true, value: v };
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case "==":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return (a as number) < (b as number);
    case "<=":
      return (a as number) <= (b as number);
    case ">":
      return (a as number) > (b as number);
    default:
      return (a as number) >= (b as number);
  }
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "object" && v !== null) return Object.values(v);
  return [];
}

/** The value itself and everything below it, depth first (for `..`). */
function descendants(v: unknown): unknown[] {
  const out: unknown[] = [v];
  for (const c of children(v)) out.push(...descendants(c));
  return out;
}

/** All values the path selects, in document order. */
export function evaluateJsonPath(steps: Step[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      switch (step.kind) {
        case "field": {
          const r = get(v, [step.name]);
          if (r.found) next.push(r.value);
          break;
        }
        case "index":
          if (Array.isArray(v)) {
            const idx = step.index < 0 ? v.length + step.index : step.index;
            if (idx >= 0 && idx < v.length) next.push(v[idx]);
          }
          break;
        case "wildcard":
          next.push(...children(v));
          break;
        case "descend":
          next.push(...descendants(v));
          break;
        case "slice":
          if (Array.isArray(v) && step.step > 0) {
            const norm = (x: number) => (x < 0 ? Math.max(v.length + x, 0) : Math.min(x, v.length));
            for (let j = norm(step.start ?? 0); j < norm(step.end ?? v.length); j += step.step)
              next.push(v[j]);
          }
          break;
        case "union":
          for (const key of step.keys) {
            if (typeof key === "number" && Array.isArray(v)) {
              const idx = key < 0 ? v.length + key : key;
              if (idx >= 0 && idx < v.length) next.push(v[idx]);
            } else if (typeof key === "string") {
              const r = get(v, [key]);
              if (r.found) next.push(r.value);
            }
          }
          break;
        case "filter":
          for (const item of children(v)) {
            const r = get(item, step.path);
            if (!r.found) continue;
            if (step.op === undefined || compare(r.value, step.op, step.literal)) next.push(item);
          }
          break;
      }
    }
    current = next;
  }
  return current;
}
