/** The kinds the documents describe: the built-ins with minimal schemas, and each served CRD version. */
import { metaSchemas } from "./meta-schemas.ts";
import {
  type CRD,
  definitionName,
  gvk,
  isObj,
  type Kind,
  listName,
  listSchema,
  type Obj,
  objectSchema,
  PRESERVE,
  STRING_MAP,
} from "./schema.ts";

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
      const selectable = Array.isArray(v.selectableFields)
        ? v.selectableFields.filter(isObj).map((f) => String(f.jsonPath ?? "").replace(/^\./, ""))
        : [];
      const schema = objectSchema(props, {
        ...rest,
        type: "object",
        ...gvk(group, v.name, kind),
        "x-kubernetes-selectable-fields": selectable.map((fieldPath) => ({ fieldPath })),
      });
      kinds.push({
        custom: true,
        selectableFields: selectable,
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

export function allKinds(crds: CRD[]): Kind[] {
  return [...builtinKinds(), ...crdKinds(crds)];
}

export function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/** Every kind's schema and list schema, with the meta.k8s.io/v1 types they refer to. */
export function schemasFor(kinds: Kind[]): Record<string, Obj> {
  const out: Record<string, Obj> = { ...metaSchemas() };
  for (const k of kinds) {
    out[k.name] = k.schema;
    out[listName(k)] = listSchema(k);
  }
  return out;
}
