import type { JSONSchemaProps } from "./index.ts";

// Builders shared by the index-*.test.ts files (admission of custom resources and CRDs).

export const meta = {
  apiVersion: { type: "string" },
  kind: { type: "string" },
  metadata: { type: "object" },
};

/** A status cause as the real server sends it in a 422's details. */
export function cause(reason: string, message: string, field: string) {
  return { reason, message, field };
}

export function schemaWithSpec(spec: JSONSchemaProps, status?: JSONSchemaProps): JSONSchemaProps {
  return { type: "object", properties: { ...meta, spec, ...(status ? { status } : {}) } } as JSONSchemaProps;
}

export function obj(spec: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "cloud.svc.io/v1alpha1",
    kind: "Route",
    metadata: { name: "r", namespace: "team-a" },
    spec,
    ...extra,
  };
}
