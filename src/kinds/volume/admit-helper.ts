import { admit, type JSONSchemaProps, type StatusCause } from "../../devcluster/admission/index.ts";
import { buildCrd } from "../../runtime/crd.ts";
import type { AnyManagedKind } from "../../runtime/kind.ts";
import { crdSources } from "../index.ts";

/**
 * For the kinds' schema tests: admits a spec against the kind's generated CRD with the
 * devcluster's admission (schema validation and CEL, transition rules with `oldSpec`), as
 * the apiserver would.
 */
export function admitter(kind: AnyManagedKind) {
  const source = crdSources([kind]).find((s) => s.kind === kind.kind)!;
  const schema = buildCrd(source).spec.versions[0].schema.openAPIV3Schema as JSONSchemaProps;
  const wrap = (spec: Record<string, unknown>) => ({
    apiVersion: "cloud.svc.io/v1alpha1",
    kind: kind.kind,
    metadata: { name: "x", namespace: "ns" },
    spec,
  });
  return (spec: Record<string, unknown>, oldSpec?: Record<string, unknown>): StatusCause[] =>
    admit({ schema, object: wrap(spec), oldObject: oldSpec && wrap(oldSpec) }).causes;
}
