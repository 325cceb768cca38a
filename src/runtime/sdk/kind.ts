import type { Logger } from "pino";
import type * as z from "zod";
import type { Condition } from "./conditions.ts";
import type { KeySource } from "./key-sources.ts";
import type { NameLookup } from "./lookup.ts";

/**
 * What a managed kind module provides (Crossplane's ExternalClient, ACK's per-kind files), as a
 * few small interfaces, each named for what it is. Every operation is idempotent; the generic
 * reconciler owns finalizers, conditions, events, retries, metrics and logging.
 *
 * S: parsed spec, D: desired API state, O: observed API representation, C: API client.
 */
export type ManagedKind<S = unknown, D = unknown, O = unknown, C = unknown> = KindDescriptor<S> &
  ServiceCalls<D, O, C> &
  DesiredState<S, D, C> &
  Comparison<D, O> &
  Relations<S, O> & {
    /** Reading a kind's objects many at once (drift, batched reads, lookups). */
    index?: KindIndex<S, D, O, C>;
    /**
     * `svc-operator export` and `plan` (optional): what their generic reading of a kind cannot
     * know. Without it, every object of the account is listed through `index` (one scope "" for an
     * account-wide collection, each cloud for a per-cloud one), and a spec is read back from
     * `atProvider`: its members named as spec fields.
     */
    export?: KindExport<O, C>;
  };

/** What the CRD is: its names, schema, columns and description. */
export interface KindDescriptor<S = unknown> {
  kind: string;
  plural: string;
  singular: string;
  /** Must not clash with built-in short names (svc, deploy, netpol, pv, ...). */
  shortNames: string[];
  /** CRD description (kubectl explain). */
  description: string;
  /** The full spec schema, including accountRef and the policies (see runtime/spec.ts). */
  schema: z.ZodType<S>;
  /** Extra printer columns shown between Synced and Href. */
  printerColumns?: PrinterColumn[];
}

/** How the service object is read and written. */
export interface ServiceCalls<D = unknown, O = unknown, C = unknown> {
  /** Reads the object by href; undefined when it does not exist. */
  observe(client: C, href: string, desired: D): Promise<O | undefined>;
  /**
   * After a create whose outcome is unknown (and before any create of a kind that adopts):
   * objects matching the desired identity. `ctx` (the operator's reconciles) offers the kind's
   * index listed by a call shared with the reads of the same kind asked meanwhile.
   */
  lookup(client: C, desired: D, ctx?: LookupContext<O>): Promise<O[]>;
  hrefOf(observed: O): string;
  create(client: C, desired: D): Promise<string>;
  /** Applies exactly the differing fields. */
  update(client: C, href: string, desired: D, observed: O, diff: FieldDiff[]): Promise<void>;
  /** Deletes the object (doing what deletion needs first, such as unlocking). */
  delete(client: C, href: string, observed: O): Promise<void>;
  /**
   * Checks the service just before a write (a create: `fields` undefined; an update: the spec
   * fields it changes) for values the service would take but that cannot work (an alert on a
   * metric its subject does not report): throw DependencyNotReadyError naming the field. Called
   * only when a write is about to be sent, so a reconcile or resync that writes nothing costs no
   * call, and an ObserveOnly resource is never checked.
   */
  beforeWrite?(client: C, desired: D, fields?: readonly string[]): Promise<void>;
}

/** What the spec asks of the service: its desired state, and the rules the schema cannot say. */
export interface DesiredState<S = unknown, D = unknown, C = unknown> {
  /** Rules the schema cannot express; throw InvalidSpecError naming the field. Pure. */
  validate?(spec: S, meta: ObjectMeta): void;
  /** Desired API state from the spec and the resolved references. May look names up (cached). */
  desired(spec: S, ctx: DesiredContext<C>): D | Promise<D>;
  /**
   * Pure: desired values the service never shows (write-only create parameters). The runtime
   * records them in status.applied after a create or update and diffs later specs against that
   * record, so a change is seen and handled like any other field (update, refuse or replace).
   */
  writeOnly?(desired: D): Record<string, unknown>;
  /**
   * Before creating, look the object up (`lookup`) and adopt a single match instead of
   * creating a second one (e.g. a role grant that already exists); status.adopted records it.
   */
  adoptExisting?: boolean;
  /** Pure: why the external object must be left in place on deletion (e.g. an adopted grant), else undefined. */
  retain?(spec: S, status: ManagedStatus): string | undefined;
}

/** What differs between the spec and the service, and what the service shows. All pure. */
export interface Comparison<D = unknown, O = unknown> {
  /** What differs between desired and observed, by spec field name. */
  diff(desired: D, observed: O): FieldDiff[];
  /** Spec fields that cannot be updated in place. */
  immutable?: readonly string[];
  /** When set, a change of an immutable field replaces the object ("createBeforeDelete" or "deleteBeforeCreate"). */
  replace?: "createBeforeDelete" | "deleteBeforeCreate";
  /**
   * The representation as shown in status.atProvider; `applied` (status.applied) holds the
   * write-only values as last applied, which a kind may show there too (the service never does).
   */
  atProvider(observed: O, applied?: Record<string, unknown>): Record<string, unknown>;
  /** Undefined when the external object is usable, else a message saying what it waits for. */
  notReady?(observed: O): string | undefined;
  /**
   * Parts of the spec the service accepted but ignores, so that they never take effect (a
   * deployment's inputs of names it does not have), each a message naming the field and saying
   * what to do. The runtime keeps the resource Ready (nothing it retries would change the service's
   * answer) with reason FieldsIgnored and the messages, and emits a Warning event when they change.
   */
  warnings?(desired: D, observed: O): string[];
}

/** How the object relates to other objects: custom resources, service objects, Secrets. All pure. */
export interface Relations<S = unknown, O = unknown> {
  /** The custom resources this spec references (dependency order, DependencyNotReady, DeletionBlocked). */
  references(spec: S): Reference[];
  /**
   * Pure: a key grouping objects of this kind in a namespace that order themselves among
   * each other without naming each other (a user's observer grant and their other roles).
   * When one becomes Ready (one that leads: `leadsSiblings`) or is deleted, the others of its
   * group are re-queued at once.
   */
  siblings?(spec: S): string | undefined;
  /**
   * Pure: whether the siblings wait for this object's Ready (a user's observer grant; default:
   * every member's). The Ready of one they do not wait for wakes none of them: members created
   * together would otherwise reconcile each other again, one index read each.
   */
  leadsSiblings?(spec: S): boolean;
  /**
   * Pure: the service objects a create links to that the spec gives as raw hrefs (not through
   * an xRef, whose target exists by construction), with the spec field of each. Just before a
   * create (never on reconciles of an existing object) the runtime checks each exists (one GET per
   * href and account, cached) and waits (DependencyNotReady naming the field) instead of sending a
   * create the service would refuse. Declare only links whose href the service can show.
   */
  links?(spec: S): Link[];
  /**
   * Pure: the ConfigMap and Secret keys the spec reads (same namespace), each with the spec field
   * naming it (key-sources.ts). The runtime reads them before `desired` (DesiredContext.sources),
   * waits naming the field while one is missing, re-queues the resource when one changes, masks the
   * field in the audit trail, and never reads them for an ObserveOnly resource.
   */
  keySources?(spec: S): KeySource[];
  /**
   * Pure: service objects the observed object holds that custom resources of their own manage (a
   * route table's routes), each an href and a label naming it for a user (`route 10.0.0.0/16 ->
   * ip_string 10.1.0.5`). The runtime reports those no custom resource names (Ready stays True,
   * reason UnmanagedContents, the message naming them; a Warning event when they change) and
   * never deletes them: the operator owns what it manages, not everything an object holds.
   */
  contents?(observed: O): Content[];
}

/**
 * Drift detection through the collection index: objects are grouped by `scope` (e.g.
 * the cloud href for per-cloud collections; "" for account-wide ones) and each group
 * is read with one `list` call per resync. `scope` returns undefined when it cannot
 * tell (the object is then reconciled on its own).
 */
export interface KindIndex<S = unknown, D = unknown, O = unknown, C = unknown> {
  scope(spec: S, status: ManagedStatus): string | undefined;
  /**
   * The scope of the object a desired state makes, when `scope` cannot tell yet (a subnet's
   * cloud before status records it): lets a just-created object be read through the index too.
   */
  scopeOfDesired?(desired: D): string | undefined;
  /**
   * With `wanted`, the objects of those hrefs are all that is needed (a batched read): a list
   * may then leave the others out (IndexOptions.wanted: they are not validated) but must show
   * every wanted one the index holds. Without it, every object of the scope.
   */
  list(client: C, scope: string, wanted?: ReadonlySet<string>): Promise<O[]>;
}

export interface KindExport<O, C> {
  /** Why the kind's objects cannot be exported (they are skipped with this message). */
  unsupported?: string;
  /** The index scopes that together hold every object of the account. */
  scopes?(client: C): Promise<string[]>;
  /**
   * Spec fields the service shows that atProvider names otherwise (merged over the generic ones),
   * or that stand for what it never shows (a placeholder, which may be named after the manifest).
   */
  spec?(observed: O, manifestName: string): Record<string, unknown>;
  /**
   * What the user must provide before the exported manifest works with managementPolicy Manage (a
   * ConfigMap that a placeholder names), else undefined: export prints it as a warning.
   */
  beforeManage?(spec: Record<string, unknown>): string | undefined;
}

export interface PrinterColumn {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface Reference {
  /** Spec field, e.g. "networkRef". */
  field: string;
  kind: string;
  name: string;
  /**
   * An association the update after the create makes (a network's default route table), not a
   * create-time dependency: the object is created, and Ready, without it; the reference is resolved
   * once its target is Ready (which wakes this object) and only then given to `desired`; until
   * then the Ready message says what it waits for. So the target may reference this object back
   * (the route table names its network) without a ReferenceCycle. The target's deletion still
   * waits for this object, as for any reference.
   */
  afterCreate?: boolean;
}

/** A service object another one holds (ManagedKind.contents). */
export interface Content {
  href: string;
  label: string;
}

/** A service object a spec links to by href: `field` is the spec field path, e.g. "runnableHref". */
export interface Link {
  field: string;
  href: string;
}

export interface FieldDiff {
  field: string;
  desired: unknown;
  observed: unknown;
}

export interface ResolvedReference {
  kind: string;
  name: string;
  href: string;
  atProvider: Record<string, unknown>;
}

/** What a lookup may read besides its own calls (see ManagedKind.lookup). */
export interface LookupContext<O> {
  /**
   * The kind's index of `scope`, from an index call sent after this was asked (BatchedReads.list):
   * as fresh as a call of the lookup's own, so it sees what an earlier create of this resource
   * made, and one call for all the lookups and reads of the kind asked together.
   */
  listIndex(scope: string): Promise<O[]>;
}

export interface DesiredContext<C> {
  meta: ObjectMeta;
  client: C;
  /** "namespace/accountName": prefix of cache keys that must not cross accounts. */
  account?: string;
  /** Cached name -> href lookups through collection indexes (clouds, volume types); always set by the reconciler. */
  names?: NameLookup;
  /** Resolved references by spec field. */
  refs: Record<string, ResolvedReference>;
  /**
   * The value of each key the spec names (ManagedKind.keySources), by spec field; absent when not
   * read (ObserveOnly, a deletion). Content for the service only: never log, show or return it.
   */
  sources?: Record<string, Buffer>;
  log: Logger;
}

export interface ObjectMeta {
  name: string;
  namespace: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string | Date;
  creationTimestamp?: string | Date;
}

export interface ManagedStatus {
  href?: string;
  atProvider?: Record<string, unknown>;
  observedGeneration?: number;
  conditions?: Condition[];
  lastHandledReconcileAt?: string;
  /** Write-only values as last applied (see ManagedKind.writeOnly). */
  applied?: Record<string, unknown>;
  /** The service object already existed and was adopted instead of created (see ManagedKind.adoptExisting). */
  adopted?: boolean;
  /** The service's audit entry of the changes made to the object at `href` (runtime/audit.ts). */
  auditEntryHref?: string;
  /** The last drift a resync found and corrected: when, and each field with the service's value. */
  lastDrift?: LastDrift;
  /**
   * Href of the object a createBeforeDelete replacement supersedes, deleted once the new one
   * exists. In status, which only the operator writes: a user cannot name an object to delete.
   */
  replaces?: string;
  [extra: string]: unknown;
}

export interface LastDrift {
  /** RFC 3339. */
  time: string;
  /** `service`: the service's value as JSON (secrets masked), "(none)" when it had none. */
  fields: { field: string; service: string }[];
}

/** A custom resource as the reconciler sees it. */
export interface ManagedObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: ManagedStatus;
}

// biome-ignore lint/suspicious/noExplicitAny: the registration list holds kinds of every type
export type AnyManagedKind = ManagedKind<any, any, any, any>;
