import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { admit, type JSONSchemaProps, type StatusCause } from "../../devcluster/admission/index.ts";
import { repoRoot } from "../../runtime/generate.ts";

/**
 * Test helper: admits a spec the way the devcluster (and so the apiserver) does, against the
 * generated crds/<file>.yaml, so the CEL rules are tested as they are shipped.
 */
export function admitterFor(file: string, kind: string) {
  const crd = parse(readFileSync(join(repoRoot, "crds", file), "utf8"));
  const schema = crd.spec.versions[0].schema.openAPIV3Schema as JSONSchemaProps;
  const object = (spec: unknown) => ({
    apiVersion: "cloud.svc.io/v1alpha1",
    kind,
    metadata: { name: "x", namespace: "team-a" },
    spec,
  });
  return (spec: unknown, oldSpec?: unknown): StatusCause[] =>
    admit({ schema, object: object(spec), oldObject: oldSpec === undefined ? undefined : object(oldSpec) })
      .causes;
}
