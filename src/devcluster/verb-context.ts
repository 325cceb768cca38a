/**
 * What the verb modules (create, update, apply, deletion, listing) work with: the store, the
 * write path and the lookups every verb shares. Operations is its one implementation and the
 * verbs' dispatcher; the verbs take this interface, not the class, so none of them imports the
 * module that imports them.
 */
import type { Obj } from "./meta.ts";
import type { ListOptions } from "./requests.ts";
import type { Store } from "./store.ts";
import type { ResourceType } from "./types.ts";
import type { WritePath } from "./write-path.ts";

export interface VerbContext {
  readonly store: Store;
  /** How every verb's object reaches the store. */
  readonly writes: WritePath;
  /** The server's clock as RFC 3339 (creation and deletion timestamps, managedFields times). */
  now(): string;
  /** The stored object as the client asked for it: apiVersion and kind of the served version. */
  serve(type: ResourceType, version: string, stored: Obj): Obj;
  /** What an error names: the resource's group and plural, and the object's name. */
  target(type: ResourceType, name?: string): { group: string; resource: string; name?: string };
  /** The URL's namespace for a namespaced type (404 when missing), undefined for a cluster-scoped one. */
  requireNamespace(type: ResourceType, namespace: string | undefined): string | undefined;
  /** The stored object, 404 when there is none. */
  getStored(type: ResourceType, namespace: string | undefined, name: string): Obj;
  list(type: ResourceType, version: string, namespace: string | undefined, options: ListOptions): Obj;
  /** Removes an object for good: DELETED carries the object at the deletion's resourceVersion. */
  remove(type: ResourceType, object: Obj): Obj;
  /** Stores a new version of an object the server changed itself (deletion starting). */
  writeModified(type: ResourceType, old: Obj, next: Obj): Obj;
}
