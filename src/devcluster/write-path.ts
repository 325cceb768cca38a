import { randomUUID } from "node:crypto";
import { type Admitter, BLOCKING } from "./admission-adapter.ts";
import { badRequest, type FieldError, fieldCause, invalid, type StatusCause } from "./errors.ts";
import { type ManagedFieldsEntry, recordUpdate, sortEntries, type WriteContext } from "./managed-fields.ts";
import {
  clone,
  deepEqual,
  dropEmpty,
  finalizersOf,
  holdsSpecFinalizers,
  isObj,
  meta,
  type Obj,
  OMITTED_WHEN_EMPTY,
  validateLabelsAndAnnotations,
  validateName,
  validateOwnerReferences,
} from "./meta.ts";
import type { WriteRequest } from "./requests.ts";
import { scopeToSubresource } from "./status-subresource.ts";
import type { Store } from "./store.ts";
import { apiVersionOf, type ResourceType, servedObject } from "./types.ts";

/** Metadata only the server sets: a client's value is replaced by the stored one (or dropped). */
export const OBJECT_SYSTEM_FIELDS = [
  "uid",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "generation",
];

/** How managedFields records this request's write: on the object as the request's version serves it. */
export function writeContext(req: WriteRequest, time: string): WriteContext {
  const { type, version } = req;
  const ctx: WriteContext = {
    manager: req.manager,
    apiVersion: apiVersionOf(type.group, version),
    shape: type.shape(version),
    subresource: req.subresource,
    time,
  };
  if (type.toServed) ctx.view = type.toServed;
  return ctx;
}

/**
 * A create's managedFields, recorded against the kind's zero value as the real field manager
 * records them against a new Go object; then what the strategy sets on create, which nobody owns.
 */
export function createEntries(req: WriteRequest, object: Obj, time: string): ManagedFieldsEntry[] {
  const { type } = req;
  const zero = type.zero ? { ...clone(type.zero), metadata: {} } : undefined;
  const entries = recordUpdate(zero, object, writeContext(req, time));
  type.prepareForCreate?.(object);
  return entries;
}

function storageGroup(type: ResourceType): string {
  return type.storageVersion.includes("/") ? type.storageVersion.split("/")[0]! : "";
}

/** Adds what a Go type always serializes and the object lacks (its zero value), in place. */
function fillZero(object: Obj, zero: Obj): void {
  for (const [key, value] of Object.entries(zero)) {
    if (object[key] === undefined) object[key] = clone(value);
    else if (isObj(value) && isObj(object[key])) fillZero(object[key] as Obj, value);
  }
}

/**
 * The one way every verb's object reaches the store, so that validation, admission, resourceVersions,
 * watch events and the controllers' look happen alike for all of them.
 */
export class WritePath {
  private readonly store: Store;
  private readonly admitter: Admitter;
  /**
   * Stored objects that passed every CEL rule of the schema they were admitted with: their next
   * update skips the rules over what it leaves unchanged (see CelValidator). Weak: an object
   * replaced in the store drops out by itself.
   */
  private readonly rulesPassed = new WeakMap<Obj, object>();
  private readonly now: () => string;
  /** Called after every committed write, so controllers (GC, namespace, CRD) can look. */
  private readonly afterWrite: (type: ResourceType, object: Obj, deleted: boolean) => void;

  constructor(deps: {
    store: Store;
    admitter: Admitter;
    now: () => string;
    afterWrite: (type: ResourceType, object: Obj, deleted: boolean) => void;
  }) {
    this.store = deps.store;
    this.admitter = deps.admitter;
    this.now = deps.now;
    this.afterWrite = deps.afterWrite;
  }

  /**
   * Everything between the client's object and the stored one: server-owned metadata, the status
   * subresource split, kind-specific normalization, validation, admission, generation.
   */
  prepare(req: WriteRequest, old: Obj | undefined, object: Obj): void {
    const { type, version } = req;
    let m = meta(object);
    const name = String(m.name ?? "");
    if (old) {
      const om = old.metadata as Obj;
      for (const key of OBJECT_SYSTEM_FIELDS) {
        if (om[key] === undefined) delete m[key];
        else m[key] = om[key];
      }
    } else {
      for (const key of OBJECT_SYSTEM_FIELDS) delete m[key];
      delete m.resourceVersion;
      m.uid = randomUUID();
      m.creationTimestamp = this.now();
      if (type.generation) m.generation = 1;
    }
    scopeToSubresource(req, old, object);
    if (type.zero) fillZero(object, type.zero);
    m = meta(object);
    dropEmpty(m, OMITTED_WHEN_EMPTY);
    // The store's key is namespace/name: a cluster-scoped object never carries a namespace.
    if (!type.namespaced) delete m.namespace;
    else if (req.namespace !== undefined) m.namespace = req.namespace;
    object.apiVersion = apiVersionOf(type.group, version);
    object.kind = type.kind;
    const errors: FieldError[] = [];
    if (!old) errors.push(...validateName(m.name, type.nameRule));
    errors.push(...validateLabelsAndAnnotations(m), ...validateOwnerReferences(m));
    if (type.normalize) errors.push(...type.normalize(object, old));
    if (old) errors.push(...finalizersAddedWhileDeleting(old, m));
    const causes: StatusCause[] = errors.map(fieldCause);
    if (type.crdName === undefined && type.resource === "customresourcedefinitions" && causes.length === 0) {
      causes.push(...this.admitter.checkCrd(object));
    }
    // The schema is checked whatever the metadata's errors, which may block its CEL rules.
    const schema = type.schema?.(version);
    if (schema) causes.push(...this.admit(req, old, object, schema, causes));
    // The real server validates the stored kind: an events.k8s.io Event's errors name core's Event.
    if (causes.length > 0) throw invalid(type.kind, storageGroup(type), name, causes);
    if (old && type.generation) {
      const strip = (o: Obj) => {
        const { metadata: _m, status: _s, ...rest } = o;
        return type.statusSubresource ? rest : { ...rest, status: o.status };
      };
      if (!deepEqual(strip(old), strip(object)))
        m.generation = Number((old.metadata as Obj).generation ?? 0) + 1;
    }
  }

  /** Runs the CRD schema's admission; an admitted object replaces `object`'s content but its metadata. */
  private admit(
    req: WriteRequest,
    old: Obj | undefined,
    object: Obj,
    schema: Obj,
    earlier: StatusCause[],
  ): StatusCause[] {
    const { type, version } = req;
    // `object` is this write's own copy and is replaced by the admitted object below, so
    // admission may work on it in place; only its metadata is kept, so that gets a copy
    // (managedFields, which admission never changes, is shared).
    const admitted: Obj = { ...object, metadata: copyMetadataForAdmission(object.metadata as Obj) };
    const input: Parameters<Admitter["admit"]>[0] = { schema, object: admitted, owned: true };
    if (earlier.some((c) => BLOCKING.has(c.reason))) input.blocked = true;
    if (old) {
      input.oldObject = servedObject(type, version, old);
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
    return result.causes;
  }

  /** Stores the prepared object (or does nothing for a no-op), then runs the finalizer rule. */
  commit(req: WriteRequest, old: Obj | undefined, object: Obj, entries: ManagedFieldsEntry[]): Obj {
    const { type, version } = req;
    const m = object.metadata as Obj;
    if (entries.length > 0) m.managedFields = sortEntries(entries);
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
      if (deepEqual(comparable(old), comparable(ordered))) return servedObject(type, version, old);
    }
    if (req.dryRun) return servedObject(type, version, ordered);
    const om = ordered.metadata as Obj;
    if (old && om.deletionTimestamp && finalizersOf(om).length === 0 && !holdsSpecFinalizers(ordered)) {
      return servedObject(type, version, this.remove(type, ordered));
    }
    const rv = this.store.nextResourceVersion();
    om.resourceVersion = String(rv);
    this.store.write(type.storageKey, old ? "MODIFIED" : "ADDED", ordered, rv, old);
    if (req.rulesPassed) this.rulesPassed.set(ordered, req.rulesPassed);
    this.afterWrite(type, ordered, false);
    return servedObject(type, version, ordered);
  }

  /** Removes an object for good: DELETED carries the object at the deletion's resourceVersion. */
  remove(type: ResourceType, object: Obj): Obj {
    const rv = this.store.nextResourceVersion();
    const gone: Obj = { ...object, metadata: { ...(object.metadata as Obj), resourceVersion: String(rv) } };
    this.store.write(type.storageKey, "DELETED", gone, rv, object);
    this.afterWrite(type, gone, true);
    return gone;
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
  controllerWrite(
    type: ResourceType,
    old: Obj,
    mutate: (next: Obj) => void,
    subresource?: "status",
    manager = "kube-controller-manager",
  ): Obj {
    const next = clone(old);
    mutate(next);
    const version = type.versions[0]!;
    const req: WriteRequest = {
      type,
      version,
      namespace: (old.metadata as Obj).namespace as string | undefined,
      manager,
    };
    if (subresource) req.subresource = subresource;
    const entries = recordUpdate(old, next, writeContext(req, this.now()));
    return this.commit(req, old, orderObject(next), entries);
  }
}

/** A finalizer may only be added before deletion starts, or the object might never go. */
function finalizersAddedWhileDeleting(old: Obj, m: Obj): FieldError[] {
  if (!(old.metadata as Obj).deletionTimestamp) return [];
  const before = finalizersOf(old.metadata as Obj);
  const added = finalizersOf(m).filter((f) => !before.includes(f));
  if (added.length === 0) return [];
  const error: FieldError = {
    type: "FieldValueForbidden",
    field: "metadata.finalizers",
    detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
  };
  // Twice, as the real server finds it twice (its update validates the object's metadata twice).
  return [error, error];
}

/** Admission may change the metadata it is given; the write must keep its own. */
function copyMetadataForAdmission(metadata: Obj): Obj {
  const copy: Obj = {};
  for (const [key, value] of Object.entries(metadata))
    copy[key] = key === "managedFields" ? value : clone(value);
  return copy;
}

/** apiVersion, kind, metadata first, as the real server serializes objects. */
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
