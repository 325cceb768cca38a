import { applyPatch } from "./apply.ts";
import {
  badRequest,
  conflict,
  fieldCause,
  GoLiteral,
  invalid,
  STALE_OBJECT,
  unsupportedMediaType,
} from "./errors.ts";
import { recordUpdate, startingEntries } from "./managed-fields.ts";
import { isObj, meta, type Obj } from "./meta.ts";
import { jsonPatch, mergePatch, strategicMergePatch } from "./patch.ts";
import { nameMismatch, namespaceMismatch, objectFromBody, parseBody } from "./request-body.ts";
import type { PatchType, WriteRequest } from "./requests.ts";
import type { VerbContext } from "./verb-context.ts";
import { writeContext } from "./write-path.ts";

/** PUT of the object or of its status. */
export function updateObject(ops: VerbContext, req: WriteRequest, name: string, body: unknown): Obj {
  const { type, version } = req;
  const namespace = ops.requireNamespace(type, req.namespace);
  const object = objectFromBody(type, version, body);
  const m = meta(object);
  if (m.name !== undefined && m.name !== name) throw nameMismatch(m.name, name);
  if (type.namespaced && m.namespace !== undefined && m.namespace !== "" && m.namespace !== namespace) {
    throw namespaceMismatch();
  }
  m.name = name;
  if (type.namespaced) m.namespace = namespace;
  const old = ops.getStored(type, namespace, name);
  const rv = m.resourceVersion;
  if (rv === undefined || rv === "") {
    if (!type.unconditionalUpdate) {
      // The real server names the resource here (gizmos.example.com), and prints the 0 as Go's %#v of a uint64.
      throw invalid(type.resource, type.group, name, [
        fieldCause({
          type: "FieldValueInvalid",
          field: "metadata.resourceVersion",
          value: new GoLiteral("0x0"),
          detail: "must be specified for an update",
        }),
      ]);
    }
  } else if (String(rv) !== (old.metadata as Obj).resourceVersion) {
    throw conflict(ops.target(type), name, STALE_OBJECT);
  }
  const oldUid = (old.metadata as Obj).uid;
  if (m.uid !== undefined && m.uid !== "" && m.uid !== oldUid) {
    throw conflict(
      ops.target(type),
      name,
      `Precondition failed: UID in precondition: ${String(m.uid)}, UID in object meta: ${String(oldUid)}`,
    );
  }
  return writeOver(ops, req, old, object, body);
}

/** PATCH of every type; apply patches go to server-side apply. */
export function patchObject(
  ops: VerbContext,
  req: WriteRequest,
  name: string,
  patchType: PatchType,
  raw: string,
  force: boolean,
): Obj {
  const { type, version } = req;
  const namespace = ops.requireNamespace(type, req.namespace);
  if (patchType === "strategic" && type.custom) {
    throw unsupportedMediaType([
      "application/json-patch+json",
      "application/merge-patch+json",
      "application/apply-patch+yaml",
    ]);
  }
  if (force && patchType !== "apply") {
    throw invalid("PatchOptions", "meta.k8s.io", "", [
      fieldCause({
        type: "FieldValueForbidden",
        field: "force",
        detail: "may not be specified for non-apply patch",
      }),
    ]);
  }
  if (patchType === "apply") return applyPatch(ops, req, name, raw, force);
  const body = parseBody(raw, "application/json");
  const old = ops.getStored(type, namespace, name);
  let current = ops.serve(type, version, old);
  if (patchType !== "json") {
    // Merge patches rarely touch managedFields: leaving them out saves deep copies of them.
    const { managedFields: _f, ...rest } = current.metadata as Obj;
    current = { ...current, metadata: rest };
  }
  let patched: unknown;
  if (patchType === "json") patched = jsonPatch(current, body);
  else {
    if (!isObj(body))
      throw badRequest("json: cannot unmarshal array into Go value of type map[string]interface {}");
    patched = patchType === "merge" ? mergePatch(current, body) : strategicMergePatch(current, body);
  }
  const object = objectFromBody(type, version, patched);
  const m = meta(object);
  if (m.name !== name) throw nameMismatch(m.name, name);
  if (type.namespaced && m.namespace !== namespace) throw namespaceMismatch();
  // A resourceVersion in the patch is a precondition, as on the real server (one the patch
  // removes is no precondition at all).
  if (
    m.resourceVersion !== undefined &&
    m.resourceVersion !== "" &&
    String(m.resourceVersion) !== (old.metadata as Obj).resourceVersion
  ) {
    throw conflict(ops.target(type), name, STALE_OBJECT);
  }
  // Its managedFields are the request's: merge patches start from the object without them.
  return writeOver(ops, req, old, object, object);
}

/** Shared tail of update and patch: managedFields (kept, replaced by the client, or tracked) and commit. */
function writeOver(ops: VerbContext, req: WriteRequest, old: Obj, object: Obj, body: unknown): Obj {
  const sent = isObj(body) && isObj(body.metadata) ? body.metadata.managedFields : undefined;
  const start = {
    ...old,
    metadata: { ...(old.metadata as Obj), managedFields: startingEntries(sent, old, req.subresource) },
  };
  ops.writes.prepare(req, old, object);
  return ops.writes.commit(req, old, object, recordUpdate(start, object, writeContext(req, ops.now())));
}
