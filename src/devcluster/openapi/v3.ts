/** /openapi/v3: an index of group-versions and one OpenAPI 3.0 document per group-version. */
import { createHash } from "node:crypto";
import { allKinds, groupVersionPath, schemasFor } from "./kinds.ts";
import { pathsFor } from "./paths.ts";
import { type CRD, type Kind, type Obj, resolveRefs, VERSION } from "./schema.ts";

function groupVersions(kinds: Kind[]): Map<string, Kind[]> {
  const out = new Map<string, Kind[]>();
  for (const k of kinds) {
    const key = groupVersionPath(k.group, k.version);
    out.set(key, [...(out.get(key) ?? []), k]);
  }
  return out;
}

function buildV3(kinds: Kind[]): Obj {
  const paths: Record<string, Obj> = {};
  for (const k of kinds) Object.assign(paths, pathsFor(k, "v3"));
  const schemas = Object.fromEntries(
    Object.entries(schemasFor(kinds)).map(([name, schema]) => [name, resolveRefs(schema, "v3")]),
  );
  // A CRD's group-version document is the apiextensions-apiserver's, titled and built its own way.
  if (kinds.some((k) => k.custom))
    return {
      openapi: "3.0.0",
      info: { title: "Kubernetes CRD Swagger", version: "v0.1.0" },
      paths,
      components: { schemas },
    };
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: VERSION },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: "apiKey",
          description: "Bearer Token authentication",
          name: "authorization",
          in: "header",
        },
      },
    },
  };
}

/** /openapi/v3: `{paths: {"apis/<g>/<v>": {serverRelativeURL: "/openapi/v3/apis/<g>/<v>?hash=..."}}}`. */
export function openApiV3Index(crds: CRD[]): object {
  const paths: Record<string, Obj> = {};
  for (const [key, kinds] of [...groupVersions(allKinds(crds))].sort(([a], [b]) => a.localeCompare(b))) {
    const hash = createHash("sha512")
      .update(JSON.stringify(buildV3(kinds)))
      .digest("hex")
      .toUpperCase();
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

/** /openapi/v3/apis/<group>/<version> (group "" for /openapi/v3/api/v1); undefined when not served. */
export function openApiV3GroupVersion(crds: CRD[], group: string, version: string): object | undefined {
  const kinds = groupVersions(allKinds(crds)).get(groupVersionPath(group, version));
  return kinds ? buildV3(kinds) : undefined;
}
