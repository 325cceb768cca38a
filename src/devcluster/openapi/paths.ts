/** The REST paths and operations of a kind, with the parameters and media types kubectl checks. */
import { groupVersionPath } from "./kinds.ts";
import { NAME_PARAM, NAMESPACE_PARAM, type Param, QUERY_PARAMS } from "./parameters.ts";
import { type Flavour, type Kind, listName, META, type Obj, ref, resolveRefs } from "./schema.ts";

interface Operation {
  method: "get" | "put" | "post" | "patch" | "delete";
  action: string;
  /** The verb kube-openapi names the operation by (operationId). */
  verb: "list" | "create" | "read" | "replace" | "patch" | "delete" | "deletecollection";
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
  "resourceVersionMatch",
  "sendInitialEvents",
  "timeoutSeconds",
  "watch",
];
const WRITE_QUERY = ["dryRun", "fieldManager", "fieldValidation"];
const DELETE_QUERY = [
  "dryRun",
  "gracePeriodSeconds",
  "ignoreStoreReadErrorWithClusterBreakingPotential",
  "orphanDependents",
  "propagationPolicy",
];

// Each operation's own query parameters, as kube-apiserver lists them; `pretty` and the path's
// parameters are listed once per path.
const LIST_OP: Operation = { method: "get", action: "list", verb: "list", kind: "list", query: LIST_QUERY };
const COLLECTION_OPS: Operation[] = [
  LIST_OP,
  { method: "post", action: "post", verb: "create", kind: "item", query: WRITE_QUERY, body: "item" },
  {
    method: "delete",
    action: "deletecollection",
    verb: "deletecollection",
    kind: "deleteOptions",
    query: LIST_QUERY,
    body: "deleteOptions",
  },
];
const STATUS_OPS: Operation[] = [
  { method: "get", action: "get", verb: "read", kind: "item", query: ["resourceVersion"] },
  { method: "put", action: "put", verb: "replace", kind: "item", query: WRITE_QUERY, body: "item" },
  {
    method: "patch",
    action: "patch",
    verb: "patch",
    kind: "item",
    query: [...WRITE_QUERY, "force"],
    body: "patch",
  },
];
const ITEM_OPS: Operation[] = [
  ...STATUS_OPS,
  {
    method: "delete",
    action: "delete",
    verb: "delete",
    kind: "deleteOptions",
    query: DELETE_QUERY,
    body: "deleteOptions",
  },
];

/** `differential.svc.io` -> `DifferentialSvcIo`; a built-in group without `.k8s.io`; the core group `Core`. */
function groupWord(group: string): string {
  if (group === "") return "Core";
  const words = group.replace(/\.k8s\.io$/, "").split(/[.-]/);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}

/** kube-openapi's operationId: `listDifferentialSvcIoV1NamespacedGizmo`, `deleteCoreV1CollectionNamespacedSecret`. */
function operationId(k: Kind, op: Operation, status: boolean, allNamespaces: boolean): string {
  const gv = `${groupWord(k.group)}${k.version.charAt(0).toUpperCase()}${k.version.slice(1)}`;
  const verb = op.verb === "deletecollection" ? "delete" : op.verb;
  const collection = op.verb === "deletecollection" ? "Collection" : "";
  if (allNamespaces) return `${verb}${gv}${k.kind}ForAllNamespaces`;
  return `${verb}${gv}${collection}${k.namespaced ? "Namespaced" : ""}${k.kind}${status ? "Status" : ""}`;
}

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

/** `{[key]: list}`, or nothing for an empty list, which the real documents leave out. */
function nonEmpty(key: string, list: unknown[]): Obj {
  return list.length > 0 ? { [key]: list } : {};
}

/** Where an operation is: its path's kind of place, which its operationId and parameters tell. */
interface Place {
  status: boolean;
  allNamespaces: boolean;
}

function operation(k: Kind, op: Operation, flavour: Flavour, place: Place): Obj {
  const opGvk = { group: k.group, version: k.version, kind: k.kind };
  const responseRef =
    op.kind === "list" ? listName(k) : op.kind === "deleteOptions" ? `${META}.Status` : k.name;
  // On the all-namespaces path the list's parameters are the path's.
  const params: Param[] = place.allNamespaces ? [] : op.query.map((q) => QUERY_PARAMS[q]!);
  const common: Obj = {
    operationId: operationId(k, op, place.status, place.allNamespaces),
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
        ...nonEmpty("parameters", [...bodyParams, ...params.map((p) => ({ ...p, uniqueItems: true }))]),
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
    ...nonEmpty(
      "parameters",
      params.map((p) => {
        const { type, ...rest } = p;
        return { ...rest, schema: { type } };
      }),
    ),
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

/** The parameters every operation of a path shares, listed once on the path. */
function pathParameters(params: Param[], flavour: Flavour): Obj[] {
  const all = [...params, QUERY_PARAMS.pretty!];
  if (flavour === "v2") return all.map((p) => ({ ...p, uniqueItems: true }));
  return all.map(({ type, ...rest }) => ({ ...rest, schema: { type, uniqueItems: true } }));
}

/** The paths of one kind (collection, item, status, all-namespaces list) with their operations. */
export function pathsFor(k: Kind, flavour: Flavour): Record<string, Obj> {
  const base = `/${groupVersionPath(k.group, k.version)}`;
  const scope = k.namespaced ? [NAMESPACE_PARAM] : [];
  const name = { ...NAME_PARAM, description: `name of the ${k.kind}` };
  const collection = k.namespaced ? `${base}/namespaces/{namespace}/${k.plural}` : `${base}/${k.plural}`;
  const build = (ops: Operation[], params: Param[], place: Place) => ({
    ...Object.fromEntries(ops.map((op) => [op.method, operation(k, op, flavour, place)])),
    parameters: pathParameters(params, flavour),
  });
  const at = (status: boolean, allNamespaces = false): Place => ({ status, allNamespaces });
  const paths: Record<string, Obj> = {
    [collection]: build(COLLECTION_OPS, scope, at(false)),
    [`${collection}/{name}`]: build(ITEM_OPS, [name, ...scope], at(false)),
  };
  if (k.status) paths[`${collection}/{name}/status`] = build(STATUS_OPS, [name, ...scope], at(true));
  if (k.namespaced) {
    const listParams = LIST_QUERY.map((q) => QUERY_PARAMS[q]!);
    paths[`${base}/${k.plural}`] = build([LIST_OP], listParams, at(false, true));
  }
  return paths;
}
