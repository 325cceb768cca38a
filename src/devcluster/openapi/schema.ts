/** The shared vocabulary of the OpenAPI documents: kinds, `$ref` placeholders, object and list schemas. */
export type Obj = Record<string, unknown>;
/** A CustomResourceDefinition object, as stored. */
export type CRD = Obj;

/** What kube-apiserver 1.32 says its OpenAPI documents describe (info.version). */
export const VERSION = "1.32";
export const META = "io.k8s.apimachinery.pkg.apis.meta.v1";

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `cloud.svc.io` + `v1alpha1` + `Route` -> `io.svc.cloud.v1alpha1.Route`. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

export interface Kind {
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
  /** Served by a CRD: its documents, list texts and selectable fields are the apiextensions-apiserver's. */
  custom?: boolean;
  /** The CRD version's selectableFields' paths. */
  selectableFields?: string[];
  /** The schema (v3 flavour; refs written as REF placeholders resolved per document version). */
  schema: Obj;
}

/** `io.svc.cloud.v1alpha1.Route` -> `io.svc.cloud.v1alpha1.RouteList`. */
export function listName(k: Kind): string {
  return `${k.name.slice(0, -k.kind.length)}${k.listKind}`;
}

/** Placeholder turned into `#/definitions/...` or `#/components/schemas/...`. */
export const REF = "$$ref:";

export function ref(name: string): Obj {
  return { $ref: `${REF}${name}` };
}

const API_VERSION_DESC =
  "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESC =
  "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const METADATA_DESC =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const LIST_METADATA_DESC =
  "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

export function gvk(group: string, version: string, kind: string): Obj {
  return { "x-kubernetes-group-version-kind": [{ group, kind, version }] };
}

export function objectSchema(properties: Obj, extra: Obj = {}): Obj {
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

export function listSchema(k: Kind): Obj {
  const items: Obj = { type: "array", items: ref(k.name) };
  if (k.custom)
    items.description = `List of ${k.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`;
  const schema: Obj = {
    description: `${k.listKind} is a list of ${k.kind}`,
    type: "object",
    required: ["items"],
    properties: {
      apiVersion: { type: "string", description: API_VERSION_DESC },
      items,
      kind: { type: "string", description: KIND_DESC },
      metadata: { ...ref(`${META}.ListMeta`), description: k.custom ? LIST_METADATA_DESC : METADATA_DESC },
    },
    ...gvk(k.group, k.version, k.listKind),
  };
  if (k.custom) schema["x-kubernetes-selectable-fields"] = selectableFields(k);
  return schema;
}

/** The CRD version's selectable fields as the apiextensions-apiserver lists them (none: []). */
export function selectableFields(k: Kind): Obj[] {
  return (k.selectableFields ?? []).map((fieldPath) => ({ fieldPath }));
}

export const PRESERVE = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
export const STRING_MAP = { type: "object", additionalProperties: { type: "string" } };

export type Flavour = "v2" | "v3";

export function resolveRefs(value: unknown, flavour: Flavour): unknown {
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
