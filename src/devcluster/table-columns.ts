/**
 * Which columns a Table has, and how each reads its cell from an object: CRD printer columns and
 * the server's fixed columns for the built-in kinds, each matching what kube-apiserver serves.
 */

import { evaluateJsonPath, parseJsonPath, type Step } from "./jsonpath.ts";
import { isObj, type Obj } from "./meta.ts";
import { ageOf, cellFor } from "./table-cells.ts";

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const CREATION_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

interface Column {
  definition: ColumnDefinition;
  cell(object: Obj, now: Date): unknown;
}

export function metadataOf(object: Obj): Obj {
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

/** A string field one level down, empty when its parent is missing (as the server's printers read it). */
function nested(parent: string, key: string): (o: Obj) => string {
  return (o) => {
    const v = o[parent];
    return isObj(v) ? String(v[key] ?? "") : "";
  };
}

/** Columns of the built-in kinds the devcluster serves, as kubectl shows them from a real server. */
function builtinColumns(kind: string | undefined): Column[] {
  const col = (name: string, type: string, cell: (o: Obj) => unknown, description = ""): Column => ({
    definition: { name, type, format: "", description, priority: 0 },
    cell,
  });
  switch (kind) {
    case "Namespace":
      return [col("Status", "string", nested("status", "phase"), "The status of the namespace")];
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
      return [col("Holder", "string", nested("spec", "holderIdentity"), "The holder of the lease")];
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

/**
 * The columns for a CRD version's objects, or for a built-in kind's.
 * @param crdVersion the CRD's spec.versions[i] (its additionalPrinterColumns), or undefined for built-ins
 */
export function columnsFor(crdVersion: object | undefined, kind: unknown): Column[] {
  if (crdVersion !== undefined) {
    const printer =
      isObj(crdVersion) && Array.isArray(crdVersion.additionalPrinterColumns)
        ? (crdVersion.additionalPrinterColumns as unknown[]).filter(isObj)
        : [];
    const custom = printer.map(printerColumn);
    // Like the apiserver: one unusable column makes the whole CRD fall back to default printing.
    if (custom.some((c) => c === undefined)) return [nameColumn(), createdAtColumn()];
    return [nameColumn(), ...(custom.length > 0 ? (custom as Column[]) : [ageColumn()])];
  }
  const k = typeof kind === "string" ? kind : undefined;
  if (k === "Event") return eventColumns();
  // CRDs print their raw creation time instead of an age, as kube-apiserver's printer does.
  return [nameColumn(), ...builtinColumns(k), ...(k === "CustomResourceDefinition" ? [] : [ageColumn()])];
}
