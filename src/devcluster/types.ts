import type { FieldError } from "./errors.ts";
import type { Shape } from "./fieldset.ts";
import type { NameRule, Obj } from "./meta.ts";

/** How a resource is served: its names, scope, versions and the rules its writes follow. */
export interface ResourceType {
  group: string;
  /** Served versions, preferred first. */
  versions: string[];
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Objects of types sharing a storage key are the same objects (core and events.k8s.io events). */
  storageKey: string;
  /** The verbs discovery lists for the resource, in the real server's order; others answer 405. */
  verbs: string[];
  /** The apiVersion objects are stored in (discovery's storageVersionHash is made of it). */
  storageVersion: string;
  /** Subresources listed in discovery (`status`, `finalize`). */
  subresources: string[];
  /** With a status subresource, main-resource writes keep the old status and /status writes only status. */
  statusSubresource: boolean;
  /** Keeps metadata.generation (CRDs and custom resources). */
  generation: boolean;
  custom: boolean;
  nameRule: NameRule;
  fieldSelectors: string[];
  /** Lets PUT omit metadata.resourceVersion (built-ins allow it; custom resources do not). */
  unconditionalUpdate: boolean;
  shape(version: string): Shape;
  /** The CRD version's openAPIV3Schema, for admission. */
  schema?(version: string): Obj | undefined;
  /** The CRD version (printer columns), for Table output. */
  crdVersion?(version: string): Obj | undefined;
  /** The CRD that serves this type. */
  crdName?: string;
  /**
   * The JSON of the kind's Go zero value: what its Go type always serializes (structs that are not
   * pointers, fields without omitempty, times as null). Every stored object carries it, and a
   * create's managedFields are recorded against it, as the real server's are.
   */
  zero?: Obj;
  /**
   * What the real strategy's PrepareForCreate sets: after the managedFields are recorded, so no
   * manager owns it (a namespace's finalizer and phase, a CRD's first status).
   */
  prepareForCreate?(object: Obj): void;
  /** Normalizes an incoming object (e.g. Secret stringData) and checks kind-specific rules. */
  normalize?(object: Obj, old: Obj | undefined): FieldError[];
  /** Converts a stored object to the served shape and back (events.k8s.io/v1 events). */
  toServed?(object: Obj): Obj;
  fromServed?(object: Obj): Obj;
}

/** The verbs of a built-in resource, as the real server lists them (sorted). */
export const STANDARD_VERBS = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];

export function typeKey(type: ResourceType): string {
  return `${type.group}/${type.resource}`;
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** The stored object as the client asked for it: apiVersion and kind of the served version. */
export function servedObject(type: ResourceType, version: string, stored: Obj): Obj {
  const { apiVersion: _a, kind: _k, ...rest } = stored;
  const served: Obj = { apiVersion: apiVersionOf(type.group, version), kind: type.kind, ...rest };
  return type.toServed ? type.toServed(served) : served;
}
