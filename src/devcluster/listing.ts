import { decodeContinue, encodeContinue } from "./continue-token.ts";
import { gone } from "./errors.ts";
import type { Obj } from "./meta.ts";
import type { ListOptions } from "./requests.ts";
import {
  type FieldRequirement,
  type LabelSelector,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
} from "./selectors.ts";
import { apiVersionOf, type ResourceType } from "./types.ts";
import type { VerbContext } from "./verb-context.ts";

export interface Selection {
  labels: LabelSelector;
  fields: FieldRequirement[];
}

export function selectionFor(
  type: ResourceType,
  options: { labelSelector?: string; fieldSelector?: string },
): Selection {
  return {
    labels: parseLabelSelector(options.labelSelector),
    fields: parseFieldSelector(options.fieldSelector, type.fieldSelectors),
  };
}

/** Whether a stored object matches the selectors (field selectors see the served form). */
export function matchesSelection(
  ops: VerbContext,
  type: ResourceType,
  version: string,
  selection: Selection,
  stored: Obj,
): boolean {
  if (!matchesLabels(selection.labels, (stored.metadata as Obj).labels)) return false;
  if (selection.fields.length === 0) return true;
  return matchesFields(selection.fields, type.toServed ? ops.serve(type, version, stored) : stored);
}

/** A list answer: selectors, namespace/name order, limit/continue as the real server pages. */
export function listObjects(
  ops: VerbContext,
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  options: ListOptions,
): Obj {
  const selection = selectionFor(type, options);
  let start = "";
  let rv = ops.store.resourceVersion;
  if (options.continue) {
    const token = decodeContinue(options.continue);
    start = token.start;
    rv = token.rv;
    if (rv < ops.store.oldestKept(type.storageKey)) {
      throw gone(
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
      );
    }
  }
  const all = ops.store.list(type.storageKey, type.namespaced ? namespace : undefined);
  const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
  const items: Obj[] = [];
  let next: string | undefined;
  let remaining = 0;
  const selected = selection.labels.length > 0 || selection.fields.length > 0;
  for (const stored of all) {
    const m = stored.metadata as Obj;
    const key = `${m.namespace ?? ""}/${m.name}`;
    if (start && key <= start) continue;
    // A full page with any key after it gets a continue token, whether the rest match or not:
    // the real server pages through etcd's keys and cannot tell without reading them.
    if (items.length >= limit) {
      next ??= encodeContinue({ v: "meta.k8s.io/v1", rv, start: lastKey(items) });
      if (selected) break;
      remaining += 1;
      continue;
    }
    if (!matchesSelection(ops, type, version, selection, stored)) continue;
    items.push(stored);
  }
  // A custom resource list always says `continue` (unstructured keeps the empty field).
  const metadata: Obj = { resourceVersion: String(rv), ...(type.custom ? { continue: "" } : {}) };
  if (next) {
    metadata.continue = next;
    if (!selected) metadata.remainingItemCount = remaining;
  }
  const apiVersion = apiVersionOf(type.group, version);
  return {
    kind: type.listKind,
    apiVersion,
    metadata,
    items: items.map((stored) => {
      const served = ops.serve(type, version, stored);
      if (type.custom) return served;
      // Typed lists of built-ins carry no kind/apiVersion on items.
      const { apiVersion: _a, kind: _k, ...rest } = served;
      return rest;
    }),
  };
}

function lastKey(items: Obj[]): string {
  const m = items.at(-1)!.metadata as Obj;
  return `${m.namespace ?? ""}/${m.name}`;
}
