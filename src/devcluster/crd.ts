import type { FieldError } from "./errors.ts";
import { METADATA_SHAPE, type Shape, shapeFromSchema } from "./fieldset.ts";
import { isObj, type Obj } from "./meta.ts";
import { type ResourceType, STANDARD_VERBS } from "./types.ts";

export const CRD_GROUP = "apiextensions.k8s.io";
export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

/** Kubernetes version priority: GA before beta before alpha, higher numbers first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return null;
    const level = m[2] === undefined ? 2 : m[2] === "beta" ? 1 : 0;
    return [level, Number(m[1]), Number(m[3] ?? 0)] as const;
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    if (pa[0] !== pb[0]) return pb[0] - pa[0];
    if (pa[1] !== pb[1]) return pb[1] - pa[1];
    return pb[2] - pa[2];
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function versionsOf(crd: Obj): Obj[] {
  const spec = isObj(crd.spec) ? crd.spec : {};
  return Array.isArray(spec.versions) ? (spec.versions.filter(isObj) as Obj[]) : [];
}

function namesOf(crd: Obj): Obj {
  const spec = isObj(crd.spec) ? crd.spec : {};
  return isObj(spec.names) ? spec.names : {};
}

/** The CRD as server-side apply sees it: spec.versions is one atomic list, status.conditions a map by type. */
const CRD_SHAPE: Shape = {
  properties: {
    metadata: METADATA_SHAPE,
    status: { properties: { conditions: { listType: "map", mapKeys: ["type"], items: {} } } },
  },
};

/** What the CRD's Go type always serializes (its spec and names are structs, not pointers). */
const CRD_ZERO: Obj = { spec: { group: "", names: { plural: "", kind: "" }, scope: "", versions: null } };

/** The CRD strategy's PrepareForCreate: the status a new CRD starts with, storedVersions filled in. */
function prepareCrd(crd: Obj): void {
  const storage = versionsOf(crd).find((v) => v.storage === true)?.name;
  crd.status = {
    conditions: null,
    acceptedNames: { plural: "", kind: "" },
    storedVersions: typeof storage === "string" ? [storage] : [],
  };
}

/** The CustomResourceDefinition type itself. */
export function crdResourceType(): ResourceType {
  return {
    group: CRD_GROUP,
    versions: ["v1"],
    resource: "customresourcedefinitions",
    singular: "customresourcedefinition",
    kind: "CustomResourceDefinition",
    listKind: "CustomResourceDefinitionList",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    storageKey: `${CRD_GROUP}/customresourcedefinitions`,
    verbs: STANDARD_VERBS,
    // CRDs are kept in etcd as v1beta1, which their storageVersionHash tells.
    storageVersion: `${CRD_GROUP}/v1beta1`,
    subresources: ["status"],
    statusSubresource: true,
    generation: true,
    custom: false,
    nameRule: "subdomain",
    fieldSelectors: ["metadata.name"],
    unconditionalUpdate: false,
    shape: () => CRD_SHAPE,
    zero: CRD_ZERO,
    normalize: normalizeCrd,
    prepareForCreate: prepareCrd,
  };
}

/** Defaults and the structural checks the real CRD validation makes before anything is served. */
export function normalizeCrd(crd: Obj, old: Obj | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const spec = isObj(crd.spec) ? crd.spec : {};
  crd.spec = spec;
  const names = isObj(spec.names) ? spec.names : {};
  spec.names = names;
  const group = spec.group;
  if (typeof group !== "string" || group === "") {
    errors.push({ type: "FieldValueRequired", field: "spec.group", detail: "" });
  } else if (!group.includes(".")) {
    errors.push({
      type: "FieldValueInvalid",
      field: "spec.group",
      value: group,
      detail: "should be a domain with at least one dot",
    });
  }
  if (typeof names.plural !== "string" || names.plural === "") {
    errors.push({ type: "FieldValueRequired", field: "spec.names.plural", detail: "" });
  }
  if (typeof names.kind !== "string" || names.kind === "") {
    errors.push({ type: "FieldValueRequired", field: "spec.names.kind", detail: "" });
  } else {
    if (names.listKind === undefined) names.listKind = `${names.kind}List`;
    if (names.singular === undefined) names.singular = names.kind.toLowerCase();
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: "None" };
  const name = isObj(crd.metadata) ? crd.metadata.name : undefined;
  if (typeof names.plural === "string" && typeof group === "string" && name !== `${names.plural}.${group}`) {
    errors.push({
      type: "FieldValueInvalid",
      field: "metadata.name",
      value: name,
      detail: 'must be spec.names.plural+"."+spec.group',
    });
  }
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    errors.push(
      spec.scope === undefined
        ? { type: "FieldValueRequired", field: "spec.scope", detail: "" }
        : {
            type: "FieldValueNotSupported",
            field: "spec.scope",
            value: spec.scope,
            detail: 'supported values: "Cluster", "Namespaced"',
          },
    );
  }
  const versions = versionsOf(crd);
  if (versions.length === 0) {
    errors.push({
      type: "FieldValueInvalid",
      field: "spec.versions",
      value: spec.versions ?? null,
      detail: "must have exactly one version marked as storage version",
    });
  } else if (versions.filter((v) => v.storage === true).length !== 1) {
    errors.push({
      type: "FieldValueInvalid",
      field: "spec.versions",
      value: versions.map((v) => v.name),
      detail: "must have exactly one version marked as storage version",
    });
  }
  versions.forEach((v, i) => {
    if (typeof v.name !== "string" || v.name === "") {
      errors.push({ type: "FieldValueRequired", field: `spec.versions[${i}].name`, detail: "" });
    }
    const schema = isObj(v.schema) ? v.schema.openAPIV3Schema : undefined;
    if (!isObj(schema)) {
      errors.push({
        type: "FieldValueRequired",
        field: `spec.versions[${i}].schema.openAPIV3Schema`,
        detail: "schemas are required",
      });
    }
  });
  if (old && isObj(old.spec)) {
    if (old.spec.group !== spec.group) {
      errors.push({
        type: "FieldValueInvalid",
        field: "spec.group",
        value: spec.group,
        detail: "field is immutable",
      });
    }
  }
  return errors;
}

/** The verbs of a custom resource, in the order the apiextensions-apiserver lists them. */
const CUSTOM_RESOURCE_VERBS = [
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "create",
  "update",
  "watch",
];

/** The served type for a CRD (whose spec passed normalizeCrd). */
export function customResourceType(crd: Obj): ResourceType {
  const spec = crd.spec as Obj;
  const names = namesOf(crd);
  const versions = versionsOf(crd);
  const served = versions.filter((v) => v.served !== false).map((v) => String(v.name));
  served.sort(compareVersions);
  const byName = new Map(versions.map((v) => [String(v.name), v]));
  const hasStatus = served.some(
    (v) => isObj(byName.get(v)?.subresources) && isObj((byName.get(v)!.subresources as Obj).status),
  );
  const shapes = new Map<string, Shape>();
  const schemaOf = (version: string) => {
    const schema = byName.get(version)?.schema;
    return isObj(schema) && isObj(schema.openAPIV3Schema) ? schema.openAPIV3Schema : undefined;
  };
  const group = String(spec.group);
  const plural = String(names.plural);
  return {
    group,
    versions: served,
    resource: plural,
    singular: String(names.singular ?? String(names.kind).toLowerCase()),
    kind: String(names.kind),
    listKind: String(names.listKind ?? `${names.kind}List`),
    namespaced: spec.scope === "Namespaced",
    shortNames: Array.isArray(names.shortNames) ? names.shortNames.map(String) : [],
    categories: Array.isArray(names.categories) ? names.categories.map(String) : [],
    storageKey: `${group}/${plural}`,
    verbs: CUSTOM_RESOURCE_VERBS,
    storageVersion: `${group}/${String(versions.find((v) => v.storage === true)?.name ?? served[0])}`,
    subresources: hasStatus ? ["status"] : [],
    statusSubresource: hasStatus,
    generation: true,
    custom: true,
    nameRule: "subdomain",
    fieldSelectors: ["metadata.name", "metadata.namespace"],
    unconditionalUpdate: false,
    crdName: String((crd.metadata as Obj).name),
    shape(version) {
      let shape = shapes.get(version);
      if (!shape) {
        const fromSchema = shapeFromSchema(schemaOf(version));
        shape = { ...fromSchema, properties: { ...(fromSchema.properties ?? {}), metadata: METADATA_SHAPE } };
        shapes.set(version, shape);
      }
      return shape;
    },
    schema: schemaOf,
    crdVersion: (version) => byName.get(version),
  };
}

interface Condition {
  type: string;
  status: "True" | "False";
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

/** Names another CRD of the same group already uses, or undefined when there is no conflict. */
export function nameConflict(crd: Obj, others: Obj[]): { reason: string; message: string } | undefined {
  const spec = crd.spec as Obj;
  const names = namesOf(crd);
  for (const other of others) {
    const otherSpec = isObj(other.spec) ? other.spec : {};
    if (otherSpec.group !== spec.group || (other.metadata as Obj).name === (crd.metadata as Obj).name)
      continue;
    const theirs = isObj(other.status) && isObj(other.status.acceptedNames) ? other.status.acceptedNames : {};
    const taken = [
      theirs.plural,
      theirs.singular,
      ...(Array.isArray(theirs.shortNames) ? theirs.shortNames : []),
    ];
    if (taken.includes(names.plural))
      return { reason: "PluralConflict", message: `"${names.plural}" is already in use` };
    if (taken.includes(names.singular))
      return { reason: "SingularConflict", message: `"${names.singular}" is already in use` };
    for (const short of Array.isArray(names.shortNames) ? names.shortNames : []) {
      if (taken.includes(short))
        return { reason: "ShortNamesConflict", message: `"${short}" is already in use` };
    }
    if (theirs.kind === names.kind)
      return { reason: "KindConflict", message: `"${names.kind}" is already in use` };
  }
  return undefined;
}

function setCondition(conditions: Condition[], next: Condition, now: string): Condition[] {
  const current = conditions.find((c) => c.type === next.type);
  const lastTransitionTime = current && current.status === next.status ? current.lastTransitionTime : now;
  const updated = { ...next, lastTransitionTime };
  return current ? conditions.map((c) => (c.type === next.type ? updated : c)) : [...conditions, updated];
}

/** The status a CRD's deletion writes, before the controller deletes its instances. */
export function terminatingCrdStatus(crd: Obj, now: string): Obj {
  const status: Obj = isObj(crd.status) ? { ...crd.status } : {};
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Condition[];
  status.conditions = setCondition(
    conditions,
    {
      type: "Terminating",
      status: "True",
      reason: "InstanceDeletionPending",
      message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    },
    now,
  );
  return status;
}

/**
 * The status the real CRD controllers (naming, establishing, finalizing) converge to:
 * acceptedNames, NamesAccepted, Established, Terminating and storedVersions.
 */
export function crdStatus(crd: Obj, others: Obj[], now: string): Obj {
  const status: Obj = isObj(crd.status) ? { ...crd.status } : {};
  let conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Condition[];
  const conflict = nameConflict(crd, others);
  if (conflict) {
    conditions = setCondition(conditions, { type: "NamesAccepted", status: "False", ...conflict }, now);
    if (!conditions.some((c) => c.type === "Established" && c.status === "True")) {
      conditions = setCondition(
        conditions,
        {
          type: "Established",
          status: "False",
          reason: "NotAccepted",
          message: "not all names are accepted",
        },
        now,
      );
    }
  } else {
    status.acceptedNames = { ...namesOf(crd) };
    conditions = setCondition(
      conditions,
      { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" },
      now,
    );
    conditions = setCondition(
      conditions,
      {
        type: "Established",
        status: "True",
        reason: "InitialNamesAccepted",
        message: "the initial names have been accepted",
      },
      now,
    );
  }
  if (isObj(crd.metadata) && crd.metadata.deletionTimestamp) {
    conditions = setCondition(
      conditions,
      {
        type: "Terminating",
        status: "True",
        reason: "InstanceDeletionInProgress",
        message: "CustomResource deletion is in progress",
      },
      now,
    );
  }
  status.conditions = conditions;
  const storage = versionsOf(crd).find((v) => v.storage === true)?.name;
  const stored = Array.isArray(status.storedVersions) ? [...(status.storedVersions as string[])] : [];
  if (typeof storage === "string" && !stored.includes(storage)) stored.push(storage);
  status.storedVersions = stored;
  if (!status.acceptedNames) status.acceptedNames = { plural: "", kind: "" };
  return status;
}
