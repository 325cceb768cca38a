/**
 * meta.k8s.io/v1 Table output for `kubectl get` (Accept: application/json;as=Table;g=meta.k8s.io;v=v1),
 * as apiextensions-apiserver's tableconvertor builds it: a Name column, then the CRD version's
 * additionalPrinterColumns (or a default Age column), cells evaluated with JSONPath and typed
 * like cellForJSONValue (date cells are rendered as the server does: a human-readable age).
 * Rows carry the object as PartialObjectMetadata unless asked otherwise.
 */

/* JSONPath as printer columns use it: `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `..name`, slices
 * `[0:2]`, unions `[0,1]` / `['a','b']` and filters `[?(@.type=="Ready")]` (==, !=, <, <=, >, >=, or
 * bare existence). Missing keys yield no result. */

type Step =
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

type Obj = Record<string, unknown>;

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableOptions {
  /** Clock for date cells (ages); defaults to the system clock. */
  now?: () => Date;
  /** What rows carry: PartialObjectMetadata (default, like the server), the whole object, or nothing. */
  includeObject?: "None" | "Metadata" | "Object";
  /** TableOptions.noHeaders: omit columnDefinitions. */
  noHeaders?: boolean;
}

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const CREATION_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

interface Column {
  definition: ColumnDefinition;
  cell(object: Obj, now: Date): unknown;
}

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

function ageOf(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== "string") return "<unknown>";
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return "<invalid>";
  return humanDuration(now.getTime() - t);
}

/** How the jsonpath printer prints a value with fmt.Fprint. */
function goPrint(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (Array.isArray(v)) return `[${v.map(goPrint).join(" ")}]`;
  if (isObj(v)) {
    const entries = Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPrint(v[k])}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(v);
}

/** tableconvertor.cellForJSONValue (plus the string branch's jsonpath printing). */
function cellFor(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "string":
      return goPrint(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? ageOf(value, now) : null;
    default:
      return null;
  }
}

function metadataOf(object: Obj): Obj {
  return isObj(object.metadata) ? object.metadata : {};
}

function nameColumn(): Column {
  return {
    definition: { name: "Name", type: "string", format: "name", description: NAME_DESCRIPTION, priority: 0 },
    cell: (object) => String(metadataOf(object).name ?? ""),
  };
}

function ageColumn(): Column {
  return {
    definition: { name: "Age", type: "date", format: "", description: CREATION_DESCRIPTION, priority: 0 },
    cell: (object, now) => ageOf(metadataOf(object).creationTimestamp, now),
  };
}

/** rest.DefaultTableConvertor's creation column: the raw RFC 3339 time, not an age. */
function createdAtColumn(): Column {
  return {
    definition: {
      name: "Created At",
      type: "date",
      format: "",
      description: CREATION_DESCRIPTION,
      priority: 0,
    },
    cell: (object) => {
      const ts = metadataOf(object).creationTimestamp;
      const t = typeof ts === "string" ? Date.parse(ts) : Number.NaN;
      return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
    },
  };
}

/** A printer column, or undefined when its JSONPath cannot be parsed. */
function printerColumn(spec: Obj): Column | undefined {
  const jsonPath = String(spec.jsonPath ?? "");
  const type = String(spec.type ?? "string");
  let steps: Step[];
  try {
    steps = parseJsonPath(jsonPath);
  } catch {
    return undefined;
  }
  return {
    definition: {
      name: String(spec.name ?? ""),
      type,
      format: typeof spec.format === "string" ? spec.format : "",
      description:
        typeof spec.description === "string" && spec.description !== ""
          ? spec.description
          : `Custom resource definition column (in JSONPath format): ${jsonPath}`,
      priority: typeof spec.priority === "number" ? spec.priority : 0,
    },
    cell: (object, now) => {
      const results = evaluateJsonPath(steps, object);
      return results.length === 0 ? null : cellFor(type, results[0], now);
    },
  };
}

function count(v: unknown): number {
  return isObj(v) ? Object.keys(v).length : 0;
}

/** Columns of the built-in kinds the devcluster serves, as kubectl shows them from a real server. */
function builtinColumns(kind: string | undefined): Column[] {
  const col = (name: string, type: string, cell: (o: Obj) => unknown, description = ""): Column => ({
    definition: { name, type, format: "", description, priority: 0 },
    cell,
  });
  switch (kind) {
    case "Namespace":
      return [
        col(
          "Status",
          "string",
          (o) => (isObj(o.status) ? String(o.status.phase ?? "") : ""),
          "The status of the namespace",
        ),
      ];
    case "Secret":
      return [
        col("Type", "string", (o) => String(o.type ?? "Opaque"), "The type of the secret"),
        col("Data", "integer", (o) => count(o.data), "The number of entries in the data"),
      ];
    case "ConfigMap":
      return [
        col("Data", "string", (o) => count(o.data) + count(o.binaryData), "Number of data in the configmap"),
      ];
    case "Lease":
      return [
        col(
          "Holder",
          "string",
          (o) => (isObj(o.spec) ? String(o.spec.holderIdentity ?? "") : ""),
          "The holder of the lease",
        ),
      ];
    case "CustomResourceDefinition":
      return [createdAtColumn()];
    default:
      return [];
  }
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * kube-apiserver's event printer (the server prints wide; kubectl hides priority 1): core/v1
 * field names, with their events.k8s.io/v1 equivalents.
 */
function eventColumns(): Column[] {
  const since = (ts: unknown, now: Date) => (str(ts) ? ageOf(ts, now) : "<unknown>");
  const first = (o: Obj, now: Date) => {
    const t = str(o.firstTimestamp) || str(o.deprecatedFirstTimestamp);
    return t ? since(t, now) : since(o.eventTime, now);
  };
  const last = (o: Obj, now: Date) => {
    const series = isObj(o.series) ? o.series : undefined;
    if (series) return since(series.lastObservedTime, now);
    const t = str(o.lastTimestamp) || str(o.deprecatedLastTimestamp);
    return t ? since(t, now) : first(o, now);
  };
  const involved = (o: Obj): Obj =>
    isObj(o.involvedObject) ? o.involvedObject : isObj(o.regarding) ? o.regarding : {};
  const source = (o: Obj) => {
    const src = isObj(o.source) ? o.source : isObj(o.deprecatedSource) ? o.deprecatedSource : {};
    const component = str(src.component) || str(o.reportingComponent) || str(o.reportingController);
    const instance = str(src.host) || str(o.reportingInstance);
    if (!component) return "<unknown>";
    return instance ? `${component}, ${instance}` : component;
  };
  const count = (o: Obj) => {
    const series = isObj(o.series) ? o.series : undefined;
    if (series && typeof series.count === "number") return series.count;
    const c =
      typeof o.count === "number" ? o.count : typeof o.deprecatedCount === "number" ? o.deprecatedCount : 0;
    return c === 0 ? 1 : c;
  };
  const col = (name: string, cell: Column["cell"], priority = 0, format = ""): Column => ({
    definition: { name, type: "string", format, description: "", priority },
    cell,
  });
  return [
    col("Last Seen", (o, now) => last(o, now)),
    col("Type", (o) => str(o.type)),
    col("Reason", (o) => str(o.reason)),
    col("Object", (o) => {
      const io = involved(o);
      const kind = str(io.kind).toLowerCase();
      return str(io.name) ? `${kind}/${str(io.name)}` : kind;
    }),
    col("Subobject", (o) => str(involved(o).fieldPath), 1),
    col("Source", (o) => source(o), 1),
    col("Message", (o) => (str(o.message) || str(o.note)).trim()),
    col("First Seen", (o, now) => first(o, now), 1),
    col("Count", (o) => count(o), 1),
    col("Name", (o) => str(metadataOf(o).name), 1, "name"),
  ];
}

function rowObject(object: Obj, include: TableOptions["includeObject"]): Obj | undefined {
  if (include === "None") return undefined;
  if (include === "Object") return object;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: metadataOf(object) };
}

/**
 * Builds the Table for `objects` (one object for a GET, the items for a LIST).
 * @param crdVersion the CRD's spec.versions[i] (its additionalPrinterColumns), or undefined for built-ins
 * @param listMeta the list's metadata (resourceVersion, continue, remainingItemCount)
 */
export function toTable(
  crdVersion: object | undefined,
  input: object[],
  listMeta?: object,
  options: TableOptions = {},
): object {
  const objects: Obj[] = input.map((o) => (isObj(o) ? o : {}));
  const now = (options.now ?? (() => new Date()))();
  const printer =
    isObj(crdVersion) && Array.isArray(crdVersion.additionalPrinterColumns)
      ? (crdVersion.additionalPrinterColumns as unknown[]).filter(isObj)
      : [];
  let columns: Column[];
  if (crdVersion !== undefined) {
    const custom = printer.map(printerColumn);
    // Like the apiserver: one unusable column makes the whole CRD fall back to default printing.
    if (custom.some((c) => c === undefined)) columns = [nameColumn(), createdAtColumn()];
    else columns = [nameColumn(), ...(custom.length > 0 ? (custom as Column[]) : [ageColumn()])];
  } else {
    const kind = objects[0]?.kind;
    const k = typeof kind === "string" ? kind : undefined;
    // CRDs print their raw creation time instead of an age, as kube-apiserver's printer does.
    if (k === "Event") columns = eventColumns();
    else {
      columns = [
        nameColumn(),
        ...builtinColumns(k),
        ...(k === "CustomResourceDefinition" ? [] : [ageColumn()]),
      ];
    }
  }
  const meta: Obj = {};
  const lm = isObj(listMeta) ? listMeta : undefined;
  if (lm) {
    for (const key of ["resourceVersion", "continue", "remainingItemCount"]) {
      if (lm[key] !== undefined && lm[key] !== "") meta[key] = lm[key];
    }
  } else if (objects.length === 1 && metadataOf(objects[0]!).resourceVersion !== undefined) {
    meta.resourceVersion = metadataOf(objects[0]!).resourceVersion;
  }
  const rows = objects.map((object) => {
    const row: Obj = { cells: columns.map((c) => c.cell(object, now)) };
    const o = rowObject(object, options.includeObject);
    if (o) row.object = o;
    return row;
  });
  const table: Obj = { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: meta };
  if (!options.noHeaders) table.columnDefinitions = columns.map((c) => c.definition);
  table.rows = rows;
  return table;
}
