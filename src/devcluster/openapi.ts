/**
 * OpenAPI documents as kube-apiserver publishes them: /openapi/v2 (swagger 2.0) and /openapi/v3
 * (an index of group-versions plus one document per group-version), with every served CRD kind
 * under `<reversed group>.<version>.<Kind>` and its `x-kubernetes-group-version-kind`.
 *
 * kubectl (>= 1.27) decides how to validate from /openapi/v3: when the PATCH operation of a kind
 * lists the `fieldValidation` query parameter it sends `fieldValidation=Strict` and lets the server
 * validate, otherwise it validates client-side. So paths carry the same operations and parameters
 * as the real server's. Built-in kinds get minimal schemas: their known top-level fields, the rest
 * `x-kubernetes-preserve-unknown-fields` (validation of built-ins is the server's job).
 */
import { createHash } from "node:crypto";

type Obj = Record<string, unknown>;
/** A CustomResourceDefinition object, as stored. */
export type CRD = Obj;

const VERSION = "v1.33.0";
const META = "io.k8s.apimachinery.pkg.apis.meta.v1";

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `cloud.svc.io` + `v1alpha1` + `Route` -> `io.svc.cloud.v1alpha1.Route`. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

interface Kind {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  namespaced: boolean;
  status: boolean;
  /**
   * Whether PATCH lists strategic merge patch. kubectl builds a strategic patch from the schema when
   * it is listed, so it is listed only where the schema is complete enough for that; custom
   * resources never accept it (as on a real server), so kubectl sends them JSON merge patches.
   */
  strategic: boolean;
  /** The name of the component/definition. */
  name: string;
  /** The schema (v3 flavour; refs written as REF placeholders resolved per document version). */
  schema: Obj;
}

/** Placeholder turned into `#/definitions/...` or `#/components/schemas/...`. */
const REF = "$$ref:";

function ref(name: string): Obj {
  return { $ref: `${REF}${name}` };
}

const API_VERSION_DESC =
  "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESC =
  "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const METADATA_DESC =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

function gvk(group: string, version: string, kind: string): Obj {
  return { "x-kubernetes-group-version-kind": [{ group, kind, version }] };
}

function objectSchema(properties: Obj, extra: Obj = {}): Obj {
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string", description: API_VERSION_DESC },
      kind: { type: "string", description: KIND_DESC },
      metadata: { ...ref(`${META}.ObjectMeta`), description: METADATA_DESC },
      ...properties,
    },
    ...extra,
  };
}

function listSchema(k: Kind): Obj {
  return {
    description: `${k.listKind} is a list of ${k.kind}`,
    type: "object",
    required: ["items"],
    properties: {
      apiVersion: { type: "string", description: API_VERSION_DESC },
      items: { type: "array", items: ref(k.name) },
      kind: { type: "string", description: KIND_DESC },
      metadata: { ...ref(`${META}.ListMeta`), description: METADATA_DESC },
    },
    ...gvk(k.group, k.version, k.listKind),
  };
}

const PRESERVE = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
const STRING_MAP = { type: "object", additionalProperties: { type: "string" } };

/**
 * What kubectl explain prints under `<kind>.metadata`: the first sentences of the real server's
 * ObjectMeta descriptions (without them every field reads `<no description>`).
 */
const OBJECT_META_DESC: Record<string, string> = {
  annotations:
    "Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects.",
  creationTimestamp:
    "CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.",
  deletionGracePeriodSeconds:
    "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. Read-only.",
  deletionTimestamp:
    "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user. Read-only.",
  finalizers:
    "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list.",
  generateName:
    "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.",
  generation:
    "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.",
  labels:
    "Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services.",
  managedFields:
    "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field.",
  name: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.",
  namespace:
    'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Cannot be updated.',
  ownerReferences:
    "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.",
  resourceVersion:
    "An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only.",
  selfLink: "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.",
  uid: "UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only.",
};

/** Adds `descriptions[name]` to each property schema that has one. */
function withDescriptions(properties: Record<string, Obj>, descriptions: Record<string, string>): Obj {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      descriptions[name] === undefined ? schema : { ...schema, description: descriptions[name] },
    ]),
  );
}

/** The meta.k8s.io/v1 types the kinds refer to. */
function metaSchemas(): Record<string, Obj> {
  const time = { type: "string", format: "date-time" };
  return {
    [`${META}.ObjectMeta`]: {
      description: "ObjectMeta is metadata that all persisted resources must have.",
      type: "object",
      properties: withDescriptions(
        {
          annotations: STRING_MAP,
          creationTimestamp: time,
          deletionGracePeriodSeconds: { type: "integer", format: "int64" },
          deletionTimestamp: time,
          finalizers: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
          generateName: { type: "string" },
          generation: { type: "integer", format: "int64" },
          labels: STRING_MAP,
          managedFields: { type: "array", items: ref(`${META}.ManagedFieldsEntry`) },
          name: { type: "string" },
          namespace: { type: "string" },
          ownerReferences: {
            type: "array",
            items: ref(`${META}.OwnerReference`),
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["uid"],
            "x-kubernetes-patch-merge-key": "uid",
            "x-kubernetes-patch-strategy": "merge",
          },
          resourceVersion: { type: "string" },
          selfLink: { type: "string" },
          uid: { type: "string" },
        },
        OBJECT_META_DESC,
      ),
    },
    [`${META}.ListMeta`]: {
      type: "object",
      properties: {
        continue: { type: "string" },
        remainingItemCount: { type: "integer", format: "int64" },
        resourceVersion: { type: "string" },
        selfLink: { type: "string" },
      },
    },
    [`${META}.ManagedFieldsEntry`]: {
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        fieldsType: { type: "string" },
        fieldsV1: { type: "object" },
        manager: { type: "string" },
        operation: { type: "string" },
        subresource: { type: "string" },
        time,
      },
    },
    [`${META}.OwnerReference`]: {
      type: "object",
      required: ["apiVersion", "kind", "name", "uid"],
      properties: {
        apiVersion: { type: "string" },
        blockOwnerDeletion: { type: "boolean" },
        controller: { type: "boolean" },
        kind: { type: "string" },
        name: { type: "string" },
        uid: { type: "string" },
      },
      "x-kubernetes-map-type": "atomic",
    },
    [`${META}.Status`]: {
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        code: { type: "integer", format: "int32" },
        details: PRESERVE,
        kind: { type: "string" },
        message: { type: "string" },
        metadata: ref(`${META}.ListMeta`),
        reason: { type: "string" },
        status: { type: "string" },
      },
      ...gvk("", "v1", "Status"),
    },
    [`${META}.DeleteOptions`]: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    [`${META}.Patch`]: {
      description: "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
      type: "object",
    },
  };
}

/** The built-in kinds the devcluster serves, with minimal schemas. */
function builtinKinds(): Kind[] {
  const k = (
    group: string,
    version: string,
    kind: string,
    plural: string,
    namespaced: boolean,
    name: string,
    properties: Obj,
  ): Kind => ({
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    namespaced,
    status: kind === "Namespace" || kind === "CustomResourceDefinition",
    strategic: kind !== "Event" && kind !== "CustomResourceDefinition",
    name,
    schema: objectSchema(properties, gvk(group, version, kind)),
  });
  const event = {
    action: { type: "string" },
    eventTime: { type: "string", format: "date-time" },
    reason: { type: "string" },
    regarding: PRESERVE,
    involvedObject: PRESERVE,
    message: { type: "string" },
    note: { type: "string" },
    type: { type: "string" },
    series: PRESERVE,
    source: PRESERVE,
    count: { type: "integer", format: "int32" },
    firstTimestamp: { type: "string", format: "date-time" },
    lastTimestamp: { type: "string", format: "date-time" },
    reportingComponent: { type: "string" },
    reportingController: { type: "string" },
    reportingInstance: { type: "string" },
    related: PRESERVE,
    deprecatedCount: { type: "integer", format: "int32" },
    deprecatedFirstTimestamp: { type: "string", format: "date-time" },
    deprecatedLastTimestamp: { type: "string", format: "date-time" },
    deprecatedSource: PRESERVE,
  };
  return [
    k("", "v1", "Namespace", "namespaces", false, "io.k8s.api.core.v1.Namespace", {
      spec: { type: "object", properties: { finalizers: { type: "array", items: { type: "string" } } } },
      status: PRESERVE,
    }),
    k("", "v1", "Secret", "secrets", true, "io.k8s.api.core.v1.Secret", {
      data: { type: "object", additionalProperties: { type: "string", format: "byte" } },
      immutable: { type: "boolean" },
      stringData: STRING_MAP,
      type: { type: "string" },
    }),
    k("", "v1", "ConfigMap", "configmaps", true, "io.k8s.api.core.v1.ConfigMap", {
      binaryData: { type: "object", additionalProperties: { type: "string", format: "byte" } },
      data: STRING_MAP,
      immutable: { type: "boolean" },
    }),
    k("", "v1", "Event", "events", true, "io.k8s.api.core.v1.Event", event),
    k("events.k8s.io", "v1", "Event", "events", true, "io.k8s.api.events.v1.Event", event),
    k("coordination.k8s.io", "v1", "Lease", "leases", true, "io.k8s.api.coordination.v1.Lease", {
      spec: {
        type: "object",
        properties: {
          acquireTime: { type: "string", format: "date-time" },
          holderIdentity: { type: "string" },
          leaseDurationSeconds: { type: "integer", format: "int32" },
          leaseTransitions: { type: "integer", format: "int32" },
          renewTime: { type: "string", format: "date-time" },
          preferredHolder: { type: "string" },
          strategy: { type: "string" },
        },
      },
    }),
    k(
      "apiextensions.k8s.io",
      "v1",
      "CustomResourceDefinition",
      "customresourcedefinitions",
      false,
      "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
      { spec: PRESERVE, status: PRESERVE },
    ),
  ];
}

/** The served versions of the CRDs as kinds. */
function crdKinds(crds: CRD[]): Kind[] {
  const kinds: Kind[] = [];
  for (const crd of crds) {
    if (!isObj(crd)) continue;
    const spec = isObj(crd.spec) ? crd.spec : undefined;
    const names = spec && isObj(spec.names) ? spec.names : undefined;
    if (!spec || !names || typeof spec.group !== "string" || typeof names.kind !== "string") continue;
    const group = spec.group;
    const kind = names.kind;
    for (const v of Array.isArray(spec.versions) ? spec.versions : []) {
      if (!isObj(v) || v.served !== true || typeof v.name !== "string") continue;
      const raw =
        isObj(v.schema) && isObj(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : { type: "object" };
      const {
        metadata: _ignored,
        apiVersion: _a,
        kind: _k,
        ...props
      } = isObj(raw.properties) ? raw.properties : {};
      const { properties: _p, ...rest } = raw;
      const schema = objectSchema(props, { ...rest, type: "object", ...gvk(group, v.name, kind) });
      kinds.push({
        group,
        version: v.name,
        kind,
        listKind: typeof names.listKind === "string" ? names.listKind : `${kind}List`,
        plural: typeof names.plural === "string" ? names.plural : `${kind.toLowerCase()}s`,
        namespaced: spec.scope !== "Cluster",
        status: isObj(v.subresources) && v.subresources.status !== undefined,
        strategic: false,
        name: definitionName(group, v.name, kind),
        schema,
      });
    }
  }
  return kinds;
}

function allKinds(crds: CRD[]): Kind[] {
  return [...builtinKinds(), ...crdKinds(crds)];
}

function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

type Param = {
  name: string;
  in: "query" | "path" | "body";
  type?: string;
  required?: boolean;
  description: string;
};

const QUERY_PARAMS: Record<string, Param> = {
  dryRun: {
    name: "dryRun",
    in: "query",
    type: "string",
    description:
      "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
  },
  fieldManager: {
    name: "fieldManager",
    in: "query",
    type: "string",
    description:
      "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
  },
  fieldValidation: {
    name: "fieldValidation",
    in: "query",
    type: "string",
    description:
      "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.",
  },
  force: {
    name: "force",
    in: "query",
    type: "boolean",
    description:
      'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  },
  labelSelector: {
    name: "labelSelector",
    in: "query",
    type: "string",
    description: "A selector to restrict the list of returned objects by their labels.",
  },
  fieldSelector: {
    name: "fieldSelector",
    in: "query",
    type: "string",
    description: "A selector to restrict the list of returned objects by their fields.",
  },
  limit: {
    name: "limit",
    in: "query",
    type: "integer",
    description: "limit is a maximum number of responses to return for a list call.",
  },
  continue: {
    name: "continue",
    in: "query",
    type: "string",
    description: "The continue option should be set when retrieving more results from the server.",
  },
  resourceVersion: {
    name: "resourceVersion",
    in: "query",
    type: "string",
    description: "resourceVersion sets a constraint on what resource versions a request may be served from.",
  },
  watch: {
    name: "watch",
    in: "query",
    type: "boolean",
    description:
      "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
  },
  allowWatchBookmarks: {
    name: "allowWatchBookmarks",
    in: "query",
    type: "boolean",
    description: 'allowWatchBookmarks requests watch events with type "BOOKMARK".',
  },
  timeoutSeconds: {
    name: "timeoutSeconds",
    in: "query",
    type: "integer",
    description: "Timeout for the list/watch call.",
  },
  pretty: {
    name: "pretty",
    in: "query",
    type: "string",
    description: "If 'true', then the output is pretty printed.",
  },
};
const NAME_PARAM: Param = {
  name: "name",
  in: "path",
  type: "string",
  required: true,
  description: "name of the resource",
};
const NAMESPACE_PARAM: Param = {
  name: "namespace",
  in: "path",
  type: "string",
  required: true,
  description: "object name and auth scope, such as for teams and projects",
};

interface Operation {
  method: "get" | "put" | "post" | "patch" | "delete";
  action: string;
  kind: "item" | "list" | "status" | "deleteOptions";
  query: string[];
  body?: "item" | "patch" | "deleteOptions";
}

const LIST_QUERY = [
  "allowWatchBookmarks",
  "continue",
  "fieldSelector",
  "labelSelector",
  "limit",
  "resourceVersion",
  "timeoutSeconds",
  "watch",
];
const WRITE_QUERY = ["dryRun", "fieldManager", "fieldValidation"];

const COLLECTION_OPS: Operation[] = [
  { method: "get", action: "list", kind: "list", query: LIST_QUERY },
  { method: "post", action: "post", kind: "item", query: WRITE_QUERY, body: "item" },
  {
    method: "delete",
    action: "deletecollection",
    kind: "deleteOptions",
    query: ["dryRun", ...LIST_QUERY],
    body: "deleteOptions",
  },
];
const ITEM_OPS: Operation[] = [
  { method: "get", action: "get", kind: "item", query: ["resourceVersion"] },
  { method: "put", action: "put", kind: "item", query: WRITE_QUERY, body: "item" },
  { method: "patch", action: "patch", kind: "item", query: [...WRITE_QUERY, "force"], body: "patch" },
  { method: "delete", action: "delete", kind: "deleteOptions", query: ["dryRun"], body: "deleteOptions" },
];
const STATUS_OPS: Operation[] = [
  { method: "get", action: "get", kind: "item", query: ["resourceVersion"] },
  { method: "put", action: "put", kind: "item", query: WRITE_QUERY, body: "item" },
  { method: "patch", action: "patch", kind: "item", query: [...WRITE_QUERY, "force"], body: "patch" },
];

const PATCH_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];
/** What the real server lists for custom resources: kubectl then sends JSON merge patches, not strategic ones. */
const NON_STRATEGIC_PATCH_TYPES = PATCH_TYPES.filter((t) => t !== "application/strategic-merge-patch+json");

type Flavour = "v2" | "v3";

function resolveRefs(value: unknown, flavour: Flavour): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, flavour));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith(REF)) {
      const name = v.slice(REF.length);
      out.$ref = flavour === "v2" ? `#/definitions/${name}` : `#/components/schemas/${name}`;
    } else {
      out[k] = resolveRefs(v, flavour);
    }
  }
  // v3 forbids siblings of $ref: wrap them in allOf, as the real server does.
  if (flavour === "v3" && typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { ...rest, allOf: [{ $ref }] };
  }
  return out;
}

/** OpenAPI v2 has no nullable/anyOf/oneOf/not: drop them as the apiserver's v2 conversion does. */
function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "nullable" || k === "anyOf" || k === "oneOf" || k === "not" || k === "allOf") continue;
    if (k === "properties" && isObj(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toV2Schema(s)]));
    } else if (
      k === "x-kubernetes-validations" ||
      k === "x-kubernetes-group-version-kind" ||
      k === "x-kubernetes-list-map-keys" ||
      k === "enum" ||
      k === "required" ||
      k === "default"
    ) {
      out[k] = v;
    } else {
      out[k] = toV2Schema(v);
    }
  }
  return out;
}

function operation(k: Kind, op: Operation, flavour: Flavour, scope: Param[]): Obj {
  const opGvk = { group: k.group, version: k.version, kind: k.kind };
  const responseRef =
    op.kind === "list"
      ? `${k.name.slice(0, -k.kind.length)}${k.listKind}`
      : op.kind === "deleteOptions"
        ? `${META}.Status`
        : k.name;
  const params: Param[] = [...scope, ...op.query.map((q) => QUERY_PARAMS[q]!)];
  const id = `${op.action}${k.namespaced ? "Namespaced" : ""}${k.kind}`;
  const common: Obj = {
    operationId: id,
    tags: [k.group === "" ? "core_v1" : `${k.group.replaceAll(".", "_")}_${k.version}`],
    "x-kubernetes-action": op.action,
    "x-kubernetes-group-version-kind": opGvk,
  };
  if (flavour === "v2") {
    const bodyParams: Obj[] = [];
    if (op.body) {
      const schema =
        op.body === "patch"
          ? ref(`${META}.Patch`)
          : op.body === "deleteOptions"
            ? ref(`${META}.DeleteOptions`)
            : ref(k.name);
      bodyParams.push({ name: "body", in: "body", required: op.body !== "deleteOptions", schema });
    }
    return resolveRefs(
      {
        ...common,
        consumes: op.method === "patch" ? (k.strategic ? PATCH_TYPES : NON_STRATEGIC_PATCH_TYPES) : ["*/*"],
        produces: ["application/json", "application/yaml"],
        schemes: ["https"],
        parameters: [...bodyParams, ...params.map((p) => ({ ...p, uniqueItems: true }))],
        responses: {
          "200": { description: "OK", schema: ref(responseRef) },
          "401": { description: "Unauthorized" },
        },
      },
      "v2",
    ) as Obj;
  }
  const content = (schema: Obj, types = ["application/json", "application/yaml"]) =>
    Object.fromEntries(types.map((t) => [t, { schema }]));
  const v3: Obj = {
    ...common,
    parameters: params.map((p) => {
      const { type, ...rest } = p;
      return { ...rest, schema: { type } };
    }),
    responses: {
      "200": { description: "OK", content: content(ref(responseRef)) },
      "401": { description: "Unauthorized" },
    },
  };
  if (op.body) {
    const schema =
      op.body === "patch"
        ? ref(`${META}.Patch`)
        : op.body === "deleteOptions"
          ? ref(`${META}.DeleteOptions`)
          : ref(k.name);
    v3.requestBody = {
      content: content(
        schema,
        op.body === "patch" ? (k.strategic ? PATCH_TYPES : NON_STRATEGIC_PATCH_TYPES) : ["*/*"],
      ),
      required: op.body !== "deleteOptions",
    };
  }
  return resolveRefs(v3, "v3") as Obj;
}

function pathsFor(k: Kind, flavour: Flavour): Record<string, Obj> {
  const base = `/${groupVersionPath(k.group, k.version)}`;
  const scope = k.namespaced ? [NAMESPACE_PARAM] : [];
  const collection = k.namespaced ? `${base}/namespaces/{namespace}/${k.plural}` : `${base}/${k.plural}`;
  const build = (ops: Operation[], params: Param[]) =>
    Object.fromEntries(ops.map((op) => [op.method, operation(k, op, flavour, params)]));
  const paths: Record<string, Obj> = {
    [collection]: build(COLLECTION_OPS, scope),
    [`${collection}/{name}`]: build(ITEM_OPS, [...scope, NAME_PARAM]),
  };
  if (k.status) paths[`${collection}/{name}/status`] = build(STATUS_OPS, [...scope, NAME_PARAM]);
  if (k.namespaced) {
    paths[`${base}/${k.plural}`] = build([COLLECTION_OPS[0]!], []);
  }
  return paths;
}

function schemasFor(kinds: Kind[]): Record<string, Obj> {
  const out: Record<string, Obj> = { ...metaSchemas() };
  for (const k of kinds) {
    out[k.name] = k.schema;
    out[`${k.name.slice(0, -k.kind.length)}${k.listKind}`] = listSchema(k);
  }
  return out;
}

/** The whole /openapi/v2 document (swagger 2.0). */
export function openApiV2(crds: CRD[]): object {
  const kinds = allKinds(crds);
  const definitions = Object.fromEntries(
    Object.entries(schemasFor(kinds)).map(([name, schema]) => [name, resolveRefs(toV2Schema(schema), "v2")]),
  );
  const paths: Record<string, Obj> = {};
  for (const k of kinds) Object.assign(paths, pathsFor(k, "v2"));
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: VERSION },
    paths,
    definitions,
    securityDefinitions: {
      BearerToken: {
        type: "apiKey",
        name: "authorization",
        in: "header",
        description: "Bearer Token authentication",
      },
    },
    security: [{ BearerToken: [] }],
  };
}

function groupVersions(kinds: Kind[]): Map<string, Kind[]> {
  const out = new Map<string, Kind[]>();
  for (const k of kinds) {
    const key = groupVersionPath(k.group, k.version);
    out.set(key, [...(out.get(key) ?? []), k]);
  }
  return out;
}

function buildV3(kinds: Kind[]): Obj {
  const paths: Record<string, Obj> = {};
  for (const k of kinds) Object.assign(paths, pathsFor(k, "v3"));
  const schemas = Object.fromEntries(
    Object.entries(schemasFor(kinds)).map(([name, schema]) => [name, resolveRefs(schema, "v3")]),
  );
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: VERSION },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: "apiKey",
          description: "Bearer Token authentication",
          name: "authorization",
          in: "header",
        },
      },
    },
    security: [{ BearerToken: [] }],
  };
}

/** /openapi/v3: `{paths: {"apis/<g>/<v>": {serverRelativeURL: "/openapi/v3/apis/<g>/<v>?hash=..."}}}`. */
export function openApiV3Index(crds: CRD[]): object {
  const paths: Record<string, Obj> = {};
  for (const [key, kinds] of [...groupVersions(allKinds(crds))].sort(([a], [b]) => a.localeCompare(b))) {
    const hash = createHash("sha512")
      .update(JSON.stringify(buildV3(kinds)))
      .digest("hex")
      .toUpperCase();
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

/** /openapi/v3/apis/<group>/<version> (group "" for /openapi/v3/api/v1); undefined when not served. */
export function openApiV3GroupVersion(crds: CRD[], group: string, version: string): object | undefined {
  const kinds = groupVersions(allKinds(crds)).get(groupVersionPath(group, version));
  return kinds ? buildV3(kinds) : undefined;
}
