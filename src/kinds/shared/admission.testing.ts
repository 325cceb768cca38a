import { admit, type JSONSchemaProps, type StatusCause } from "../../admission/index.ts";
import { buildCrd } from "../../runtime/crd/index.ts";
import type { AnyManagedKind, CrdSource } from "../../runtime/sdk/index.ts";
import { crdSources } from "../index.ts";

/** Admits a spec (and, for transition rules, the spec it replaces): the causes, empty when admitted. */
export type SpecAdmitter = (spec: unknown, oldSpec?: unknown) => StatusCause[];

/**
 * For the kinds' schema tests: admits specs the way the apiserver (and the devcluster) does,
 * schema validation and CEL rules, with the kind's CRD as `npm run generate` writes it to crds/
 * (src/kinds/crds.test.ts holds the two equal).
 */
export function admitter(kind: AnyManagedKind): SpecAdmitter {
  return crdAdmitter(crdSources([kind]).find((s) => s.kind === kind.kind)!);
}

/** The same for a CRD that is no managed kind (Account). */
export function crdAdmitter(source: CrdSource): SpecAdmitter {
  const schema = buildCrd(source).spec.versions[0].schema.openAPIV3Schema as JSONSchemaProps;
  const wrap = (spec: unknown) => ({
    apiVersion: "cloud.svc.io/v1alpha1",
    kind: source.kind,
    metadata: { name: "x", namespace: "team-a" },
    spec,
  });
  return (spec, oldSpec) =>
    admit({ schema, object: wrap(spec), oldObject: oldSpec === undefined ? undefined : wrap(oldSpec) })
      .causes;
}
