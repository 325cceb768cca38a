import { parameterError, resourceNotFound } from "./errors.ts";
import type { Store, StoredObject } from "./store.ts";

/**
 * Reads the ids out of an href by template: `matchHref("/api/clouds/1/volumes/7",
 * "/api/clouds/:cloud_id/volumes/:id")` is `{cloud_id: "1", id: "7"}`; null when the shape differs.
 */
export function matchHref(href: string, template: string): Record<string, string> | null {
  const parts = href.split("/");
  const shape = template.split("/");
  if (parts.length !== shape.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < shape.length; i++) {
    const expected = shape[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(":")) {
      if (actual === "") return null;
      out[expected.slice(1)] = actual;
    } else if (expected !== actual) return null;
  }
  return out;
}

/**
 * Resolves an href parameter to a stored object: 400 naming the parameter when the href has
 * the wrong shape, 422 `ResourceNotFound` when no such object exists.
 */
export function resolveHref<T extends StoredObject>(
  store: Store,
  param: string,
  href: string,
  target: {
    template: string;
    collection: string;
    label: string;
    scope?: (object: T, ids: Record<string, string>) => boolean;
  },
): T {
  const ids = matchHref(href, target.template);
  if (!ids || ids.id === undefined)
    throw parameterError(`${param} must be an href of the form ${target.template} (got '${href}')`);
  const found = store.collection<T>(target.collection).get(ids.id);
  if (!found || (target.scope && !target.scope(found, ids))) throw resourceNotFound(target.label, ids.id);
  return found;
}
