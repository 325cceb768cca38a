/** The REST paths and operations of a kind, with the parameters and media types kubectl checks. */
import { groupVersionPath } from "./kinds.ts";
import { NAME_PARAM, NAMESPACE_PARAM, type Param, QUERY_PARAMS } from "./parameters.ts";
import { type Flavour, type Kind, listName, META, type Obj, ref, resolveRefs } from "./schema.ts";

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

/** The request body's schema: the kind itself, or meta.k8s.io's Patch or DeleteOptions. */
function bodySchema(k: Kind, body: NonNullable<Operation["body"]>): Obj {
  if (body === "patch") return ref(`${META}.Patch`);
  if (body === "deleteOptions") return ref(`${META}.DeleteOptions`);
  return ref(k.name);
}

/** The request media types: patch types for PATCH (strategic only where listed), anything else. */
function consumes(k: Kind, op: Operation): string[] {
  if (op.method !== "patch") return ["*/*"];
  return k.strategic ? PATCH_TYPES : NON_STRATEGIC_PATCH_TYPES;
}

function operation(k: Kind, op: Operation, flavour: Flavour, scope: Param[]): Obj {
  const opGvk = { group: k.group, version: k.version, kind: k.kind };
  const responseRef =
    op.kind === "list" ? listName(k) : op.kind === "deleteOptions" ? `${META}.Status` : k.name;
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
      bodyParams.push({
        name: "body",
        in: "body",
        required: op.body !== "deleteOptions",
        schema: bodySchema(k, op.body),
      });
    }
    return resolveRefs(
      {
        ...common,
        consumes: consumes(k, op),
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
    v3.requestBody = {
      content: content(bodySchema(k, op.body), consumes(k, op)),
      required: op.body !== "deleteOptions",
    };
  }
  return resolveRefs(v3, "v3") as Obj;
}

/** The paths of one kind (collection, item, status, all-namespaces list) with their operations. */
export function pathsFor(k: Kind, flavour: Flavour): Record<string, Obj> {
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
