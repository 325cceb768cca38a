import { checkCreatable } from "./create.ts";
import { badRequest, conflict, fieldCause, invalid, notFound, STALE_OBJECT } from "./errors.ts";
import { allowedConflicts, syncLastApplied } from "./last-applied.ts";
import { applyConfiguration } from "./managed-fields.ts";
import { isObj, meta, type Obj } from "./meta.ts";
import { nameMismatch, namespaceMismatch, objectFromBody, parseBody } from "./request-body.ts";
import type { WriteRequest } from "./requests.ts";
import { applyConfigurationFor } from "./status-subresource.ts";
import { typedPatchError } from "./typed-apply.ts";
import { apiVersionOf } from "./types.ts";
import type { VerbContext } from "./verb-context.ts";
import { OBJECT_SYSTEM_FIELDS, writeContext } from "./write-path.ts";

/** Server-side apply: merges the manager's configuration, creating the object when there is none. */
export function applyPatch(
  ops: VerbContext,
  req: WriteRequest,
  name: string,
  raw: string,
  force: boolean,
): Obj {
  const { type, version } = req;
  const namespace = type.namespaced ? req.namespace : undefined;
  const { body, applied } = readApplyConfiguration(req, name, namespace, raw);
  const old = ops.store.get(type.storageKey, namespace, name);
  const am = meta(applied);
  if (
    am.resourceVersion !== undefined &&
    old &&
    String(am.resourceVersion) !== (old.metadata as Obj).resourceVersion
  ) {
    throw conflict(ops.target(type), name, STALE_OBJECT);
  }
  const config = applyConfigurationFor(type, req.subresource, applied);
  const ctx = { ...writeContext(req, ops.now()), force };
  const allowed = allowedConflicts(ctx.manager, old, ctx.apiVersion, ctx.shape);
  const result = applyConfiguration(old, config, { ...ctx, allowedConflicts: allowed });
  syncLastApplied(ctx.manager, result.merged, body);
  const { metadata: mergedMeta, ...mergedRest } = result.merged;
  const baseMeta: Obj = {};
  if (old)
    for (const key of [...OBJECT_SYSTEM_FIELDS, "resourceVersion"]) {
      const v = (old.metadata as Obj)[key];
      if (v !== undefined) baseMeta[key] = v;
    }
  const object: Obj = {
    apiVersion: apiVersionOf(type.group, version),
    kind: type.kind,
    metadata: {
      name,
      ...(namespace !== undefined ? { namespace } : {}),
      ...baseMeta,
      ...(isObj(mergedMeta) ? mergedMeta : {}),
    },
    ...mergedRest,
  };
  if (!old) {
    if (req.subresource) throw notFound(ops.target(type), name);
    checkCreatable(ops, type, namespace, name);
    req.created = true;
    ops.writes.prepare(req, undefined, object);
    type.prepareForCreate?.(object);
    return ops.writes.commit(req, undefined, object, result.entries);
  }
  ops.writes.prepare(req, old, object);
  return ops.writes.commit(req, old, object, result.entries);
}

/** The apply configuration as sent (for last-applied) and as this write's own stored-form copy. */
function readApplyConfiguration(
  req: WriteRequest,
  name: string,
  namespace: string | undefined,
  raw: string,
): { body: Obj; applied: Obj } {
  const { type, version } = req;
  if (!req.manager || req.manager === "") {
    throw invalid("PatchOptions", "meta.k8s.io", "", [
      fieldCause({
        type: "FieldValueRequired",
        field: "fieldManager",
        detail: "is required for apply patch",
      }),
    ]);
  }
  const body = parseBody(raw, "application/apply-patch+yaml");
  if (!isObj(body)) throw badRequest("error decoding YAML: the apply configuration must be an object");
  if (body.apiVersion === undefined || body.kind === undefined) {
    throw badRequest("Object 'Kind' is missing in the apply configuration");
  }
  const expected = apiVersionOf(type.group, version);
  if (body.apiVersion !== expected || body.kind !== type.kind) {
    const [group, v] = String(body.apiVersion).includes("/")
      ? String(body.apiVersion).split("/")
      : ["", body.apiVersion];
    throw badRequest(`invalid object type: ${group}/${String(v)}, Kind=${String(body.kind)}`);
  }
  const schema = type.schema?.(version);
  const untyped = schema && typedPatchError(body, schema, `${expected}, Kind=${type.kind}`);
  if (untyped) throw untyped;
  const applied = objectFromBody(type, version, body);
  const am = meta(applied);
  if (am.name !== undefined && am.name !== name) throw nameMismatch(am.name, name);
  if (type.namespaced && am.namespace !== undefined && am.namespace !== namespace) {
    throw namespaceMismatch();
  }
  if (am.managedFields !== undefined) {
    throw badRequest("metadata.managedFields must be nil");
  }
  return { body, applied };
}
