/** The objects the differential cases send: one CRD of the suite's own group, paths to its kind. */

export const GROUP = "differential.svc.io";
export const CRD_NAME = `gizmos.${GROUP}`;
export const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** A namespaced kind with a status subresource, printer columns, a short name and a category. */
export const GIZMO_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: CRD_NAME },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: {
      plural: "gizmos",
      singular: "gizmo",
      kind: "Gizmo",
      shortNames: ["gzm"],
      categories: ["svcdiff"],
    },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Size", type: "integer", jsonPath: ".spec.size" },
          { name: "Phase", type: "string", jsonPath: ".status.phase" },
        ],
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  size: { type: "integer", minimum: 1, maximum: 10 },
                  color: { type: "string", enum: ["red", "blue"] },
                  tags: { type: "array", items: { type: "string" } },
                  ports: {
                    type: "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    items: {
                      type: "object",
                      required: ["name"],
                      properties: { name: { type: "string" }, port: { type: "integer" } },
                    },
                  },
                },
                "x-kubernetes-validations": [
                  {
                    rule: "!has(self.color) || self.size > 1",
                    message: "a colored gizmo has size 2 or more",
                  },
                ],
              },
              status: { type: "object", properties: { phase: { type: "string" } } },
            },
          },
        },
      },
    ],
  },
};

/** The Gizmos of namespace `ns`, or one of them. */
export function gizmos(ns: string, name?: string, subresource?: string): string {
  return [`/apis/${GROUP}/v1/namespaces/${ns}/gizmos`, name, subresource].filter(Boolean).join("/");
}

/** A Gizmo to create. */
export function gizmo(
  name: string,
  spec: Record<string, unknown> = { size: 3 },
  labels?: Record<string, string>,
) {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: "Gizmo",
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  };
}

/** The core resources of namespace `ns`. */
export function core(ns: string, resource: string, name?: string): string {
  return [`/api/v1/namespaces/${ns}/${resource}`, name].filter(Boolean).join("/");
}
