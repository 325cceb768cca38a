import type { Admitter } from "./admission-adapter.ts";
import { createObject } from "./create.ts";
import { deleteCollection, deleteObject } from "./deletion.ts";
import { ApiError, notFound, pageNotFound } from "./errors.ts";
import { listObjects, matchesSelection, type Selection, selectionFor } from "./listing.ts";
import { type Obj, rfc3339 } from "./meta.ts";
import type { Registry } from "./registry.ts";
import { parseBody } from "./request-body.ts";
import type { DeleteOptions, ListOptions, PatchType, WriteRequest } from "./requests.ts";
import type { Store } from "./store.ts";
import { type ResourceType, servedObject } from "./types.ts";
import { patchObject, updateObject } from "./update.ts";
import type { VerbContext } from "./verb-context.ts";
import { WritePath } from "./write-path.ts";

export interface Clock {
  now(): Date;
}

/**
 * The API semantics of every verb, independent of HTTP: the one object the server and its
 * controllers hold. Each verb lives in its own module; this class gives them the shared state
 * (as their VerbContext) and dispatches to them.
 */
export class Operations implements VerbContext {
  readonly store: Store;
  readonly registry: Registry;
  /** How every verb's object reaches the store. */
  readonly writes: WritePath;
  private readonly clock: Clock;

  constructor(deps: {
    store: Store;
    registry: Registry;
    admitter: Admitter;
    clock: Clock;
    afterWrite?: (type: ResourceType, object: Obj, deleted: boolean) => void;
  }) {
    this.store = deps.store;
    this.registry = deps.registry;
    this.clock = deps.clock;
    this.writes = new WritePath({
      store: deps.store,
      admitter: deps.admitter,
      now: () => this.now(),
      afterWrite: deps.afterWrite ?? (() => {}),
    });
  }

  now(): string {
    return rfc3339(this.clock.now());
  }

  /** The stored object as the client asked for it: apiVersion and kind of the served version. */
  serve(type: ResourceType, version: string, stored: Obj): Obj {
    return servedObject(type, version, stored);
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
    return parseBody(raw, contentType);
  }

  create(req: WriteRequest, body: unknown): Obj {
    return createObject(this, req, body);
  }

  /** PUT of the object or of its status. */
  update(req: WriteRequest, name: string, body: unknown): Obj {
    return updateObject(this, req, name, body);
  }

  patch(req: WriteRequest, name: string, patchType: PatchType, raw: string, force: boolean): Obj {
    return patchObject(this, req, name, patchType, raw, force);
  }

  /** Removes an object for good: DELETED carries the object at the deletion's resourceVersion. */
  remove(type: ResourceType, object: Obj): Obj {
    return this.writes.remove(type, object);
  }

  delete(req: WriteRequest, name: string, options: DeleteOptions): { object: Obj; deleted: boolean } {
    return deleteObject(this, req, name, options);
  }

  deleteCollection(req: WriteRequest, options: ListOptions & DeleteOptions): Obj {
    return deleteCollection(this, req, options);
  }

  /** Stores a new version of an object the server changed itself (deletion starting). */
  writeModified(type: ResourceType, old: Obj, next: Obj): Obj {
    return this.writes.writeModified(type, old, next);
  }

  /** Writes by the built-in controllers (namespace, CRD, GC): no admission, no precondition. */
  controllerWrite(
    type: ResourceType,
    old: Obj,
    mutate: (next: Obj) => void,
    subresource?: "status",
    manager = "kube-controller-manager",
  ): Obj {
    return this.writes.controllerWrite(type, old, mutate, subresource, manager);
  }
}

export { droppedPaths } from "./write-path.ts";
export { ApiError };
