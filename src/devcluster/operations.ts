import { randomUUID } from "node:crypto";
import { parse as parseYaml } from "yaml";
import type { Admitter } from "./admission-adapter.ts";
import { deleteCollection, deleteObject, holdsSpecFinalizers } from "./deletion.ts";
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  type FieldError,
  fieldCause,
  invalid,
  methodNotAllowedWhile,
  namespaceTerminating,
  notFound,
  pageNotFound,
  STALE_OBJECT,
  type StatusCause,
  unsupportedMediaType,
} from "./errors.ts";
import { allowedConflicts, syncLastApplied } from "./last-applied.ts";
import { listObjects, matchesSelection, type Selection, selectionFor } from "./listing.ts";
import {
  applyConfiguration,
  type ManagedFieldsEntry,
  recordUpdate,
  startingEntries,
} from "./managed-fields.ts";
import {
  clone,
  deepEqual,
  finalizersOf,
  isObj,
  meta,
  type Obj,
  randomSuffix,
  rfc3339,
  validateLabelsAndAnnotations,
  validateName,
  validateOwnerReferences,
} from "./meta.ts";
import { jsonPatch, mergePatch, strategicMergePatch } from "./patch.ts";
import type { Registry } from "./registry.ts";
import type { Store } from "./store.ts";
import { apiVersionOf, type ResourceType } from "./types.ts";

export interface Clock {
  now(): Date;
}

/** Who writes and how: the served version, the namespace in the URL, the field manager. */
export interface WriteRequest {
  type: ResourceType;
  version: string;
  namespace?: string;
  /** `fieldManager` query parameter, or the prefix of the User-Agent (as the real server derives it). */
  manager: string;
  dryRun?: boolean;
  subresource?: "status";
  /** Unknown fields: Strict rejects, Warn reports them in `warnings`, Ignore drops them silently. */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  warnings?: string[];
  /** Set by admission: the schema whose every rule the object passed (the stored object gets it). */
  rulesPassed?: object;
}

export type { Selection } from "./listing.ts";

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface DeleteOptions {
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export type PatchType = "merge" | "json" | "strategic" | "apply";

export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  "application/merge-patch+json": "merge",
  "application/json-patch+json": "json",
  "application/strategic-merge-patch+json": "strategic",
  "application/apply-patch+yaml": "apply",
  "application/apply-patch+cbor": "apply",
};

const OBJECT_SYSTEM_FIELDS = [
  "uid",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "generation",
];

/** The API semantics of every verb, independent of HTTP. */
export class Operations {
  readonly store: Store;
  readonly registry: Registry;
  private readonly admitter: Admitter;
  /**
   * Stored objects that passed every CEL rule of the schema they were admitted with: their next
   * update skips the rules over what it leaves unchanged (see CelValidator). Weak: an object
   * replaced in the store drops out by itself.
   */
  private readonly rulesPassed = new WeakMap<Obj, object>();
  private readonly clock: Clock;
  /** Called after every committed write, so controllers (GC, namespace, CRD) can look. */
  private readonly afterWrite: (type: ResourceType, object: Obj, deleted: boolean) => void;

  constructor(deps: {
    store: Store;
    registry: Registry;
    admitter: Admitter;
    clock: Clock;
    afterWrite?: (type: ResourceType, object: Obj, deleted: boolean) => void;
  }) {
    this.store = deps.store;
    this.registry = deps.registry;
    this.admitter = deps.admitter;
    this.clock = deps.clock;
    this.afterWrite = deps.afterWrite ?? (() => {});
  }

  now(): string {
    return rfc3339(this.clock.now());
  }

  /** The stored object as the client asked for it: apiVersion and kind of the served version. */
  serve(type: ResourceType, version: string, stored: Obj): Obj {
    const { apiVersion: _a, kind: _k, ...rest } = stored;
    const served: Obj = { apiVersion: apiVersionOf(type.group, version), kind: type.kind, ...rest };
    return type.toServed ? type.toServed(served) : served;
  }

  target(type: ResourceType, name?: string) {
    return { group: type.group, resource: type.resource, name };
  }

  requireNamespace(type: ResourceType, namespace: string | undefined): string | undefined {
    if (!type.namespaced) return undefined;
    if (!namespace) throw pageNotFound();
    return namespace;
  }

  getStored(type: ResourceType, namespace: string | undefined, name: string): Obj {
    const object = this.store.get(type.storageKey, type.namespaced ? namespace : undefined, name);
    if (!object) throw notFound(this.target(type), name);
    return object;
  }

  get(type: ResourceType, version: string, namespace: string | undefined, name: string): Obj {
    return this.serve(type, version, this.getStored(type, namespace, name));
  }

  selection(type: ResourceType, options: { labelSelector?: string; fieldSelector?: string }): Selection {
    return selectionFor(type, options);
  }

  matches(type: ResourceType, version: string, selection: Selection, stored: Obj): boolean {
    return matchesSelection(this, type, version, selection, stored);
  }

  list(type: ResourceType, version: string, namespace: string | undefined, options: ListOptions): Obj {
    return listObjects(this, type, version, namespace, options);
  }

  /** Parses a request body (JSON, or YAML for create/update/apply) into an object, 400 when malformed. */
  static parseBody(raw: string, contentType: string): unknown {
    const media = contentType.split(";")[0]!.trim().toLowerCase();
    if (raw.trim() === "") throw badRequest("the request body is empty");
    try {
      if (media === "application/yaml" || media === "application/apply-patch+yaml") {
        return parseYaml(raw, { maxAliasCount: 100 });
      }
      return JSON.parse(raw);
    } catch (error) {
      const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw badRequest(`couldn't get version/kind; json parse error: ${message}`);
    }
  }

  private checkKind(type: ResourceType, version: string, body: unknown): Obj {
    if (!isObj(body)) throw badRequest("Object 'Kind' is missing in the request body: expected an object");
    const expected = apiVersionOf(type.group, version);
    if (body.apiVersion !== undefined && body.apiVersion !== expected) {
      throw badRequest(
        `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expected})`,
      );
    }
    if (body.kind !== undefined && body.kind !== type.kind) {
      throw badRequest(
        `the kind in the data (${String(body.kind)}) does not match the expected kind (${type.kind})`,
      );
    }
    if (body.metadata !== undefined && !isObj(body.metadata)) {
      throw badRequest("json: cannot unmarshal into Go struct field Object.metadata of type v1.ObjectMeta");
    }
    const object = clone(body);
    const stored = type.fromServed ? type.fromServed(object) : object;
    return stored;
  }

  private checkNamespaceWritable(type: ResourceType, namespace: string | undefined, name: string): void {
    if (!type.namespaced || namespace === undefined) return;
    const ns = this.store.get("/namespaces", undefined, namespace);
    if (!ns) throw notFound({ group: "", resource: "namespaces" }, namespace);
    if ((ns.metadata as Obj).deletionTimestamp)
      throw namespaceTerminating(this.target(type), name, namespace);
  }

  private checkCrdServing(type: ResourceType): void {
    if (!type.crdName) return;
    const crd = this.store.get("apiextensions.k8s.io/customresourcedefinitions", undefined, type.crdName);
    if (crd && (crd.metadata as Obj).deletionTimestamp) {
      throw methodNotAllowedWhile(`create not allowed while custom resource definition is terminating`);
    }
  }

  create(req: WriteRequest, body: unknown): Obj {
    const { type, version } = req;
    const namespace = this.requireNamespace(type, req.namespace);
    const object = this.checkKind(type, version, body);
    const m = meta(object);
    if (m.resourceVersion !== undefined && m.resourceVersion !== "") {
      throw badRequest("resourceVersion should not be set on objects to be created");
    }
    if (type.namespaced) {
      if (m.namespace !== undefined && m.namespace !== "" && m.namespace !== namespace) {
        throw badRequest(
          "the namespace of the provided object does not match the namespace sent on the request",
        );
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
    this.checkCrdServing(type);
    this.checkNamespaceWritable(type, namespace, name);
    if (this.store.get(type.storageKey, namespace, name)) throw alreadyExists(this.target(type), name);
    const managed = this.prepare(req, undefined, object);
    managed.managedFields ??= recordUpdate(undefined, object, {
      manager: req.manager,
      apiVersion: apiVersionOf(type.group, version),
      shape: type.shape(version),
      time: this.now(),
    });
    return this.commit(req, undefined, object, managed.managedFields);
  }

  /** PUT of the object or of its status. */
  update(req: WriteRequest, name: string, body: unknown): Obj {
    const { type, version } = req;
    const namespace = this.requireNamespace(type, req.namespace);
    const object = this.checkKind(type, version, body);
    const m = meta(object);
    if (m.name !== undefined && m.name !== name) {
      throw badRequest(
        `the name of the object (${String(m.name)}) does not match the name on the URL (${name})`,
      );
    }
    if (type.namespaced && m.namespace !== undefined && m.namespace !== "" && m.namespace !== namespace) {
      throw badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    m.name = name;
    if (type.namespaced) m.namespace = namespace;
    const old = this.getStored(type, namespace, name);
    const rv = m.resourceVersion;
    if (rv === undefined || rv === "") {
      if (!type.unconditionalUpdate) {
        throw invalid(type.kind, type.group, name, [
          fieldCause({
            type: "FieldValueInvalid",
            field: "metadata.resourceVersion",
            value: 0,
            detail: "must be specified for an update",
          }),
        ]);
      }
    } else if (String(rv) !== (old.metadata as Obj).resourceVersion) {
      throw conflict(this.target(type), name, STALE_OBJECT);
    }
    const oldUid = (old.metadata as Obj).uid;
    if (m.uid !== undefined && m.uid !== "" && m.uid !== oldUid) {
      throw conflict(
        this.target(type),
        name,
        `Precondition failed: UID in precondition: ${String(m.uid)}, UID in object meta: ${String(oldUid)}`,
      );
    }
    return this.writeOver(req, old, object, body);
  }

  /** Shared tail of update and patch: managedFields (kept, replaced by the client, or tracked) and commit. */
  private writeOver(req: WriteRequest, old: Obj, object: Obj, body: unknown): Obj {
    const { type, version } = req;
    const sent = isObj(body) && isObj(body.metadata) ? body.metadata.managedFields : undefined;
    const start = {
      ...old,
      metadata: { ...(old.metadata as Obj), managedFields: startingEntries(sent, old, req.subresource) },
    };
    const managed = this.prepare(req, old, object);
    const entries = recordUpdate(start, object, {
      manager: req.manager,
      apiVersion: apiVersionOf(type.group, version),
      shape: type.shape(version),
      subresource: req.subresource,
      time: this.now(),
    });
    return this.commit(req, old, object, managed.managedFields ?? entries);
  }

  patch(req: WriteRequest, name: string, patchType: PatchType, raw: string, force: boolean): Obj {
    const { type, version } = req;
    const namespace = this.requireNamespace(type, req.namespace);
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
    if (patchType === "apply") return this.apply(req, name, raw, force);
    const body = Operations.parseBody(raw, "application/json");
    const old = this.getStored(type, namespace, name);
    let current = this.serve(type, version, old);
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
    const object = this.checkKind(type, version, patched);
    const m = meta(object);
    if (m.name !== name) {
      throw badRequest(
        `the name of the object (${String(m.name)}) does not match the name on the URL (${name})`,
      );
    }
    if (type.namespaced && m.namespace !== namespace) {
      throw badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    // A resourceVersion in the patch is a precondition, as on the real server (one the patch
    // removes is no precondition at all).
    if (
      m.resourceVersion !== undefined &&
      m.resourceVersion !== "" &&
      String(m.resourceVersion) !== (old.metadata as Obj).resourceVersion
    ) {
      throw conflict(this.target(type), name, STALE_OBJECT);
    }
    // Its managedFields are the request's: merge patches start from the object without them.
    return this.writeOver(req, old, object, object);
  }

  private apply(req: WriteRequest, name: string, raw: string, force: boolean): Obj {
    const { type, version } = req;
    const namespace = type.namespaced ? req.namespace : undefined;
    if (!req.manager || req.manager === "") {
      throw invalid("PatchOptions", "meta.k8s.io", "", [
        fieldCause({
          type: "FieldValueRequired",
          field: "fieldManager",
          detail: "is required for apply patch",
        }),
      ]);
    }
    const body = Operations.parseBody(raw, "application/apply-patch+yaml");
    if (!isObj(body)) throw badRequest("error decoding YAML: the apply configuration must be an object");
    if (body.apiVersion === undefined || body.kind === undefined) {
      throw badRequest("Object 'Kind' is missing in the apply configuration");
    }
    const applied = this.checkKind(type, version, body);
    const am = meta(applied);
    if (am.name !== undefined && am.name !== name) {
      throw badRequest(
        `the name of the object (${String(am.name)}) does not match the name on the URL (${name})`,
      );
    }
    if (type.namespaced && am.namespace !== undefined && am.namespace !== namespace) {
      throw badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    if (am.managedFields !== undefined) {
      throw badRequest("metadata.managedFields must be nil");
    }
    const old = this.store.get(type.storageKey, namespace, name);
    if (
      am.resourceVersion !== undefined &&
      old &&
      String(am.resourceVersion) !== (old.metadata as Obj).resourceVersion
    ) {
      throw conflict(this.target(type), name, STALE_OBJECT);
    }
    let config: Obj = applied;
    if (type.statusSubresource) {
      if (req.subresource === "status") {
        config = { apiVersion: applied.apiVersion, kind: applied.kind, metadata: {} };
        if (applied.status !== undefined) config.status = applied.status;
      } else {
        const { status: _s, ...rest } = applied;
        config = rest;
      }
    }
    const [apiVersion, shape] = [apiVersionOf(type.group, version), type.shape(version)];
    const { manager, subresource } = req;
    const ctx = { manager, apiVersion, subresource, shape, time: this.now(), force };
    const allowed = allowedConflicts(manager, old, apiVersion, shape);
    const result = applyConfiguration(old, config, { ...ctx, allowedConflicts: allowed });
    syncLastApplied(manager, result.merged, body);
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
      if (req.subresource) throw notFound(this.target(type), name);
      this.checkCrdServing(type);
      this.checkNamespaceWritable(type, namespace, name);
      this.prepare(req, undefined, object);
      return this.commit(req, undefined, object, result.entries);
    }
    this.prepare(req, old, object);
    return this.commit(req, old, object, result.entries);
  }

  /**
   * Everything between the client's object and the stored one: server-owned metadata, the status
   * subresource split, kind-specific normalization, validation, admission, generation.
   */
  private prepare(
    req: WriteRequest,
    old: Obj | undefined,
    object: Obj,
  ): { managedFields?: ManagedFieldsEntry[] } {
    const { type, version } = req;
    let m = meta(object);
    const name = String(m.name ?? "");
    if (old) {
      const om = old.metadata as Obj;
      for (const key of OBJECT_SYSTEM_FIELDS) {
        if (om[key] === undefined) delete m[key];
        else m[key] = om[key];
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
    } else {
      for (const key of OBJECT_SYSTEM_FIELDS) delete m[key];
      delete m.resourceVersion;
      if (type.statusSubresource && type.custom) delete object.status;
      m.uid = randomUUID();
      m.creationTimestamp = this.now();
      if (type.generation) m.generation = 1;
    }
    m = meta(object);
    // The store's key is namespace/name: a cluster-scoped object never carries a namespace.
    if (!type.namespaced) delete m.namespace;
    else if (req.namespace !== undefined) m.namespace = req.namespace;
    object.apiVersion = apiVersionOf(type.group, version);
    object.kind = type.kind;
    const errors: FieldError[] = [];
    if (!old) errors.push(...validateName(m.name, type.nameRule));
    errors.push(...validateLabelsAndAnnotations(m), ...validateOwnerReferences(m));
    if (type.normalize) errors.push(...type.normalize(object, old));
    if (old && (old.metadata as Obj).deletionTimestamp) {
      const before = finalizersOf(old.metadata as Obj);
      const added = finalizersOf(m).filter((f) => !before.includes(f));
      if (added.length > 0) {
        errors.push({
          type: "FieldValueForbidden",
          field: "metadata.finalizers",
          detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
        });
      }
    }
    const causes: StatusCause[] = errors.map(fieldCause);
    if (type.crdName === undefined && type.resource === "customresourcedefinitions" && causes.length === 0) {
      causes.push(...this.admitter.checkCrd(object));
    }
    const schema = type.schema?.(version);
    if (schema && causes.length === 0) {
      // `object` is this write's own copy and is replaced by the admitted object below, so
      // admission may work on it in place; only its metadata is kept, so that gets a copy
      // (managedFields, which admission never changes, is shared).
      const admitted: Obj = { ...object, metadata: copyMetadataForAdmission(object.metadata as Obj) };
      const input: Parameters<Admitter["admit"]>[0] = { schema, object: admitted, owned: true };
      if (old) {
        input.oldObject = this.serve(type, version, old);
        if (this.rulesPassed.get(old) === schema) input.oldPassed = true;
      }
      if (req.subresource) input.subresource = req.subresource;
      const result = this.admitter.admit(input);
      // Unknown fields are found while decoding, before validation runs, as on the real server.
      const unknown = result.unknownFields ?? droppedPaths(object, result.object, "");
      if (unknown.length > 0 && req.fieldValidation === "Strict") {
        throw badRequest(
          `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: strict decoding error: ${unknown.map((p) => `unknown field "${p}"`).join(", ")}`,
        );
      }
      causes.push(...result.causes);
      if (result.causes.length === 0 && result.rulesPassed) req.rulesPassed = schema;
      if (result.causes.length === 0) {
        if (result.warnings) req.warnings?.push(...result.warnings);
        if (unknown.length > 0 && req.fieldValidation !== "Ignore") {
          req.warnings?.push(...unknown.map((p) => `unknown field "${p}"`));
        }
        const keptMeta = object.metadata;
        const fromAdmission = { ...result.object };
        for (const key of Object.keys(object)) delete object[key];
        Object.assign(object, fromAdmission, { metadata: keptMeta });
      }
    }
    if (causes.length > 0) throw invalid(type.kind, type.group, name, causes);
    if (old && type.generation) {
      const strip = (o: Obj) => {
        const { metadata: _m, status: _s, ...rest } = o;
        return type.statusSubresource ? rest : { ...rest, status: o.status };
      };
      if (!deepEqual(strip(old), strip(object)))
        m.generation = Number((old.metadata as Obj).generation ?? 0) + 1;
    }
    return {};
  }

  /** Stores the prepared object (or does nothing for a no-op), then runs the finalizer rule. */
  private commit(req: WriteRequest, old: Obj | undefined, object: Obj, entries: ManagedFieldsEntry[]): Obj {
    const { type, version } = req;
    const m = object.metadata as Obj;
    if (entries.length > 0) m.managedFields = entries;
    else delete m.managedFields;
    const ordered = orderObject(object);
    if (old) {
      // A write that changes nothing but managedFields times is a no-op (no new resourceVersion).
      const comparable = (o: Obj) => {
        const { resourceVersion: _r, managedFields, ...rest } = o.metadata as Obj;
        const owners = Array.isArray(managedFields)
          ? managedFields.map((e) => (isObj(e) ? { ...e, time: undefined } : e))
          : undefined;
        return { ...o, metadata: { ...rest, owners } };
      };
      if (deepEqual(comparable(old), comparable(ordered))) return this.serve(type, version, old);
    }
    if (req.dryRun) return this.serve(type, version, ordered);
    const om = ordered.metadata as Obj;
    if (old && om.deletionTimestamp && finalizersOf(om).length === 0 && !holdsSpecFinalizers(ordered)) {
      return this.serve(type, version, this.remove(type, ordered));
    }
    const rv = this.store.nextResourceVersion();
    om.resourceVersion = String(rv);
    this.store.write(type.storageKey, old ? "MODIFIED" : "ADDED", ordered, rv, old);
    if (req.rulesPassed) this.rulesPassed.set(ordered, req.rulesPassed);
    this.afterWrite(type, ordered, false);
    return this.serve(type, version, ordered);
  }

  /** Removes an object for good: DELETED carries the object at the deletion's resourceVersion. */
  remove(type: ResourceType, object: Obj): Obj {
    const rv = this.store.nextResourceVersion();
    const gone: Obj = { ...object, metadata: { ...(object.metadata as Obj), resourceVersion: String(rv) } };
    this.store.write(type.storageKey, "DELETED", gone, rv, object);
    this.afterWrite(type, gone, true);
    return gone;
  }

  delete(req: WriteRequest, name: string, options: DeleteOptions): { object: Obj; deleted: boolean } {
    return deleteObject(this, req, name, options);
  }

  deleteCollection(req: WriteRequest, options: ListOptions & DeleteOptions): Obj {
    return deleteCollection(this, req, options);
  }

  /** Stores a new version of an object the server changed itself (deletion starting). */
  writeModified(type: ResourceType, old: Obj, next: Obj): Obj {
    const rv = this.store.nextResourceVersion();
    (next.metadata as Obj).resourceVersion = String(rv);
    const ordered = orderObject(next);
    this.store.write(type.storageKey, "MODIFIED", ordered, rv, old);
    this.afterWrite(type, ordered, false);
    return ordered;
  }

  /** Writes by the built-in controllers (namespace, CRD, GC): no admission, no precondition. */
  controllerWrite(type: ResourceType, old: Obj, mutate: (next: Obj) => void, subresource?: "status"): Obj {
    const next = clone(old);
    mutate(next);
    const version = type.versions[0]!;
    const req: WriteRequest = {
      type,
      version,
      namespace: (old.metadata as Obj).namespace as string | undefined,
      manager: "kube-controller-manager",
    };
    if (subresource) req.subresource = subresource;
    const entries = recordUpdate(old, next, {
      manager: req.manager,
      apiVersion: apiVersionOf(type.group, version),
      shape: type.shape(version),
      subresource,
      time: this.now(),
    });
    return this.commit(req, old, orderObject(next), entries);
  }
}

/** apiVersion, kind, metadata first, as the real server serializes objects. */
function copyMetadataForAdmission(metadata: Obj): Obj {
  const copy: Obj = {};
  for (const [key, value] of Object.entries(metadata))
    copy[key] = key === "managedFields" ? value : clone(value);
  return copy;
}

function orderObject(object: Obj): Obj {
  const { apiVersion, kind, metadata, ...rest } = object;
  return { apiVersion, kind, metadata, ...rest };
}

/** Fields in `input` that admission pruned away (JSON paths like `spec.foo`). */
export function droppedPaths(input: unknown, output: unknown, prefix: string): string[] {
  if (!isObj(input)) return [];
  if (!isObj(output)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (prefix === "" && (key === "metadata" || key === "apiVersion" || key === "kind")) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (!Object.hasOwn(output, key)) out.push(path);
    else out.push(...droppedPaths(value, output[key], path));
  }
  return out;
}

export { ApiError };
