import { clone, type Obj } from "./meta.ts";
import type { WriteRequest } from "./requests.ts";
import type { ResourceType } from "./types.ts";

// With a status subresource, a write to the object and a write to its /status each own one part
// of it: whatever the client sends for the other part is replaced by what is stored.

/** Narrows the client's object in place to the part this write may change. */
export function scopeToSubresource(req: WriteRequest, old: Obj | undefined, object: Obj): void {
  const { type } = req;
  if (!old) {
    // A create sets no status through the object (a built-in's strategy may set one itself).
    if (type.statusSubresource) delete object.status;
    return;
  }
  if (req.subresource === "status") {
    // A status write changes status only (and not metadata), as the real status strategy does.
    const status = object.status;
    const { managedFields: _f, ...oldMeta } = old.metadata as Obj;
    for (const key of Object.keys(object)) delete object[key];
    Object.assign(object, clone({ ...old, metadata: oldMeta }));
    if (status === undefined) delete object.status;
    else object.status = status;
  } else if (type.statusSubresource) {
    if (old.status === undefined) delete object.status;
    else object.status = clone(old.status);
  }
}

/**
 * The part of an apply configuration this apply owns fields in: what it says about the other part
 * must neither be applied nor claimed in managedFields.
 */
export function applyConfigurationFor(
  type: ResourceType,
  subresource: string | undefined,
  applied: Obj,
): Obj {
  if (!type.statusSubresource) return applied;
  if (subresource === "status") {
    const config: Obj = { apiVersion: applied.apiVersion, kind: applied.kind, metadata: {} };
    if (applied.status !== undefined) config.status = applied.status;
    return config;
  }
  const { status: _s, ...rest } = applied;
  return rest;
}
