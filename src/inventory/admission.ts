import { admit, type JSONSchemaProps } from "../admission/index.ts";
import { crdSources } from "../kinds/index.ts";
import { buildCrd } from "../runtime/crd/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";

const schemas = new WeakMap<AnyManagedKind, JSONSchemaProps>();

/** The openAPIV3Schema of the kind's CRD, as `npm run generate` writes it (built once per kind). */
function schemaOf(kind: AnyManagedKind): JSONSchemaProps {
  let schema = schemas.get(kind);
  if (!schema) {
    const source = crdSources([kind]).find((s) => s.kind === kind.kind)!;
    schema = buildCrd(source).spec.versions[0].schema.openAPIV3Schema as JSONSchemaProps;
    schemas.set(kind, schema);
  }
  return schema;
}

/** What admission makes of an object: defaulted and pruned, or refused with each field's error. */
export interface AdmissionResult {
  object: Record<string, unknown>;
  /** `spec.cidrBlock: Invalid value: ...`, one per error; empty when admitted. */
  problems: string[];
}

/**
 * The object as the apiserver would admit it, with the CRD's own schema and CEL rules
 * (src/admission, the apiextensions admission the devcluster serves too): pruned, defaulted, validated; with
 * `old` (the object in the cluster), the transition rules too (an immutable field changed).
 */
export function admitObject(
  kind: AnyManagedKind,
  object: Record<string, unknown>,
  old?: Record<string, unknown>,
): AdmissionResult {
  const result = admit({ schema: schemaOf(kind), object, oldObject: old });
  return {
    object: result.object,
    problems: [
      ...result.unknownFields.map((f) => `${f}: unknown field (kubectl apply refuses it)`),
      ...result.causes.map((c) => (c.message.startsWith(c.field) ? c.message : `${c.field}: ${c.message}`)),
    ],
  };
}
