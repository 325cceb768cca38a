/**
 * Resolving hrefs passed as parameters: a malformed href is a 400 naming the parameter and
 * the shapes it accepts; a well-formed href naming no object is a 422 ResourceNotFound, as
 * the real service answers for unknown ids.
 */
import { parameterError, resourceNotFound } from "../errors.ts";
import type { Store, StoredObject } from "../store.ts";
import { describeKinds, HREF_KINDS, type HrefKindName, type ParsedHref, parseHref } from "./hrefs.ts";

/** Records of other modules read loosely (their shapes are theirs). */
export type Loose = StoredObject & Record<string, unknown>;

export interface Resolved<T> extends ParsedHref {
  readonly href: string;
  readonly object: T;
}

/** Cloud-scoped objects carry `cloud_id`; an href under another cloud names no object. */
function inCloud(object: StoredObject, cloudId: string | undefined): boolean {
  if (cloudId === undefined) return true;
  const owner = (object as { cloud_id?: unknown }).cloud_id;
  return owner === undefined || String(owner) === cloudId;
}

/** The parsed href, or a 400 naming `param` and the accepted shapes. */
export function parseParamHref(param: string, href: string, ...kinds: HrefKindName[]): ParsedHref {
  const parsed = parseHref(href, ...kinds);
  if (!parsed) throw parameterError(`${param} must be ${describeKinds(...kinds)} (got '${href}')`);
  return parsed;
}

/** Looks an href up: 400 when malformed, 422 ResourceNotFound when it names no object. */
export function resolveHref<T extends StoredObject = Loose>(
  store: Store,
  param: string,
  href: string,
  ...kinds: HrefKindName[]
): Resolved<T> {
  const parsed = parseParamHref(param, href, ...kinds);
  const kind = HREF_KINDS[parsed.kind];
  const object = store.collection<T>(kind.collection).get(parsed.id);
  if (!object || !inCloud(object, parsed.cloudId)) throw resourceNotFound(kind.label, parsed.id);
  return { ...parsed, href, object };
}

/** Like resolveHref for an optional parameter: undefined stays undefined. */
export function resolveOptional<T extends StoredObject = Loose>(
  store: Store,
  param: string,
  href: string | undefined,
  ...kinds: HrefKindName[]
): Resolved<T> | undefined {
  return href === undefined ? undefined : resolveHref<T>(store, param, href, ...kinds);
}

/** The object of a path id in a cloud (nested path forms): 422 ResourceNotFound otherwise. */
export function requireInCloud<T extends StoredObject>(
  store: Store,
  kind: HrefKindName,
  id: string,
  cloudId: string,
): T {
  const def = HREF_KINDS[kind];
  const object = store.collection<T>(def.collection).get(id);
  if (!object || !inCloud(object, cloudId)) throw resourceNotFound(def.label, id);
  return object;
}
