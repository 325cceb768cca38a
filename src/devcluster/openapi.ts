/**
 * OpenAPI documents as kube-apiserver publishes them: /openapi/v2 (swagger 2.0) and /openapi/v3
 * (an index of group-versions plus one document per group-version), with every served CRD kind
 * under `<reversed group>.<version>.<Kind>` and its `x-kubernetes-group-version-kind`.
 *
 * kubectl (>= 1.27) decides how to validate from /openapi/v3: when the PATCH operation of a kind
 * lists the `fieldValidation` query parameter it sends `fieldValidation=Strict` and lets the server
 * validate, otherwise it validates client-side. So paths carry the same operations and parameters
 * as the real server's. Built-in kinds get minimal schemas: their known top-level fields, the rest
 * `x-kubernetes-preserve-unknown-fields` (validation of built-ins is the server's job).
 */

export type { CRD } from "./openapi/schema.ts";
export { definitionName } from "./openapi/schema.ts";
export { openApiV2 } from "./openapi/v2.ts";
export { openApiV3GroupVersion, openApiV3Index } from "./openapi/v3.ts";
