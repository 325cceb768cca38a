/** /openapi/v2: one swagger 2.0 document with every kind. */
import { allKinds, schemasFor } from "./kinds.ts";
import { pathsFor } from "./paths.ts";
import { type CRD, isObj, type Obj, resolveRefs, VERSION } from "./schema.ts";

/** OpenAPI v2 has no nullable/anyOf/oneOf/not: drop them as the apiserver's v2 conversion does. */
function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "nullable" || k === "anyOf" || k === "oneOf" || k === "not" || k === "allOf") continue;
    if (k === "properties" && isObj(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toV2Schema(s)]));
    } else if (
      k === "x-kubernetes-validations" ||
      k === "x-kubernetes-group-version-kind" ||
      k === "x-kubernetes-list-map-keys" ||
      k === "enum" ||
      k === "required" ||
      k === "default"
    ) {
      out[k] = v;
    } else {
      out[k] = toV2Schema(v);
    }
  }
  return out;
}

/** The whole /openapi/v2 document (swagger 2.0). */
export function openApiV2(crds: CRD[]): object {
  const kinds = allKinds(crds);
  const definitions = Object.fromEntries(
    Object.entries(schemasFor(kinds)).map(([name, schema]) => [name, resolveRefs(toV2Schema(schema), "v2")]),
  );
  const paths: Record<string, Obj> = {};
  for (const k of kinds) Object.assign(paths, pathsFor(k, "v2"));
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: VERSION },
    paths,
    definitions,
    securityDefinitions: {
      BearerToken: {
        type: "apiKey",
        name: "authorization",
        in: "header",
        description: "Bearer Token authentication",
      },
    },
    security: [{ BearerToken: [] }],
  };
}
