import { ApiError, alreadyExists, methodNotAllowedWhile, namespaceTerminating, notFound } from "./errors.ts";
import { meta, type Obj, randomSuffix } from "./meta.ts";
import { namespaceMismatch, objectFromBody } from "./request-body.ts";
import type { WriteRequest } from "./requests.ts";
import type { ResourceType } from "./types.ts";
import type { VerbContext } from "./verb-context.ts";
import { createEntries } from "./write-path.ts";

/** POST: a new object, named by the client or from its generateName. */
export function createObject(ops: VerbContext, req: WriteRequest, body: unknown): Obj {
  const { type, version } = req;
  const namespace = ops.requireNamespace(type, req.namespace);
  const object = objectFromBody(type, version, body);
  const m = meta(object);
  if (m.resourceVersion !== undefined && m.resourceVersion !== "") {
    // The real server answers this one with a bare 500 (no reason).
    throw new ApiError(500, "", "resourceVersion should not be set on objects to be created");
  }
  if (type.namespaced) {
    if (m.namespace !== undefined && m.namespace !== "" && m.namespace !== namespace) {
      throw namespaceMismatch();
    }
    m.namespace = namespace;
  } else {
    delete m.namespace;
  }
  if (
    (m.name === undefined || m.name === "") &&
    typeof m.generateName === "string" &&
    m.generateName !== ""
  ) {
    m.name = `${m.generateName}${randomSuffix()}`;
  }
  const name = typeof m.name === "string" ? m.name : "";
  checkCreatable(ops, type, namespace, name);
  if (ops.store.get(type.storageKey, namespace, name)) throw alreadyExists(ops.target(type), name);
  ops.writes.prepare(req, undefined, object);
  return ops.writes.commit(req, undefined, object, createEntries(req, object, ops.now()));
}

/**
 * Whether a new object may come into being here: not while its CRD or its namespace is being
 * deleted, or their deletion could never finish. An apply that creates asks the same.
 */
export function checkCreatable(
  ops: VerbContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
): void {
  if (type.crdName) {
    const crd = ops.store.get("apiextensions.k8s.io/customresourcedefinitions", undefined, type.crdName);
    if (crd && (crd.metadata as Obj).deletionTimestamp) {
      throw methodNotAllowedWhile(`create not allowed while custom resource definition is terminating`);
    }
  }
  if (!type.namespaced || namespace === undefined) return;
  const ns = ops.store.get("/namespaces", undefined, namespace);
  if (!ns) throw notFound({ group: "", resource: "namespaces" }, namespace);
  if ((ns.metadata as Obj).deletionTimestamp) throw namespaceTerminating(ops.target(type), name, namespace);
}
