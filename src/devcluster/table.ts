/**
 * meta.k8s.io/v1 Table output for `kubectl get` (Accept: application/json;as=Table;g=meta.k8s.io;v=v1),
 * as apiextensions-apiserver's tableconvertor builds it: a Name column, then the CRD version's
 * additionalPrinterColumns (or a default Age column), cells evaluated with JSONPath and typed
 * like cellForJSONValue (date cells are rendered as the server does: a human-readable age).
 * Rows carry the object as PartialObjectMetadata unless asked otherwise.
 */

import { isObj, type Obj } from "./meta.ts";
import { columnsFor, metadataOf } from "./table-columns.ts";

export { evaluateJsonPath, JsonPathError, parseJsonPath } from "./jsonpath.ts";
export { humanDuration } from "./table-cells.ts";
export type { ColumnDefinition } from "./table-columns.ts";

export interface TableOptions {
  /** Clock for date cells (ages); defaults to the system clock. */
  now?: () => Date;
  /** What rows carry: PartialObjectMetadata (default, like the server), the whole object, or nothing. */
  includeObject?: "None" | "Metadata" | "Object";
  /** TableOptions.noHeaders: omit columnDefinitions. */
  noHeaders?: boolean;
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
  const columns = columnsFor(crdVersion, objects[0]?.kind);
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
