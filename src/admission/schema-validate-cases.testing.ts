import { admit } from "./index.ts";
import type { JSONSchemaProps } from "./types.ts";

// Builders shared by the schema-validate-*.test.ts files.

/** A CRD root schema with `spec.field` of the given schema. */
export function root(field: JSONSchemaProps, specExtra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec: { type: "object", properties: { field }, ...specExtra },
    },
  };
}

export function causesFor(field: JSONSchemaProps, value: unknown) {
  const object = { apiVersion: "g.io/v1", kind: "K", metadata: { name: "x" }, spec: { field: value } };
  return admit({ schema: root(field), object }).causes;
}

export interface Case {
  reason: string;
  schema: JSONSchemaProps;
  value: unknown;
  want: { reason: string; message: string; field: string }[];
}

export const F = "spec.field";

/** A status cause as the real server words it; on `spec.field` unless told. */
export function cause(reason: string, message: string, field = F) {
  return { reason, message, field };
}
