/** Where a request path points: discovery, a collection, an object, or one of its subresources. */
export type Route =
  | { kind: "version" }
  | { kind: "api" }
  | { kind: "apis" }
  | { kind: "group"; group: string }
  | { kind: "resources"; group: string; version: string }
  | {
      kind: "resource";
      group: string;
      version: string;
      namespace?: string;
      resource: string;
      name?: string;
      subresource?: string;
      legacyWatch: boolean;
    }
  | { kind: "health" }
  | { kind: "openapi-v2" }
  | { kind: "openapi-v3" }
  | { kind: "openapi-v3-gv"; group: string; version: string }
  | { kind: "cut-watches" }
  | { kind: "deny" }
  | { kind: "unknown" };

/**
 * Parses `/api/v1/...` and `/apis/<g>/<v>/...`. `isNamespaced(group, version, resource)` settles
 * `/api/v1/namespaces/<x>/<y>`: a namespaced resource `<y>` in namespace `<x>`, or the namespace
 * `<x>`'s subresource `<y>` (status, finalize).
 */
export function route(
  pathname: string,
  isNamespaced: (group: string, version: string, resource: string) => boolean,
): Route {
  let parts: string[];
  try {
    parts = pathname
      .split("/")
      .filter((p) => p !== "")
      .map(decodeURIComponent);
  } catch {
    return { kind: "unknown" }; // a malformed %-escape names nothing
  }
  if (pathname === "/version" || pathname === "/version/") return { kind: "version" };
  if (["/healthz", "/livez", "/readyz"].includes(pathname.replace(/\/$/, ""))) return { kind: "health" };
  if (pathname === "/openapi/v2") return { kind: "openapi-v2" };
  if (pathname === "/openapi/v3" || pathname === "/openapi/v3/") return { kind: "openapi-v3" };
  if (pathname.startsWith("/openapi/v3/")) {
    const rest = parts.slice(2);
    if (rest[0] === "api" && rest.length === 2)
      return { kind: "openapi-v3-gv", group: "", version: rest[1]! };
    if (rest[0] === "apis" && rest.length === 3)
      return { kind: "openapi-v3-gv", group: rest[1]!, version: rest[2]! };
    return { kind: "unknown" };
  }
  if (pathname === "/__dev/faults/cut-watches") return { kind: "cut-watches" };
  if (pathname === "/__dev/faults/deny") return { kind: "deny" };
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (parts[0] === "api") {
    if (parts.length === 1) return { kind: "api" };
    group = "";
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === "apis") {
    if (parts.length === 1) return { kind: "apis" };
    group = parts[1]!;
    if (parts.length === 2) return { kind: "group", group };
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return { kind: "unknown" };
  }
  if (version === undefined) return { kind: "unknown" };
  if (rest.length === 0) return { kind: "resources", group, version };
  let legacyWatch = false;
  if (rest[0] === "watch") {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  if (rest[0] === "namespaces" && rest.length >= 3 && isNamespaced(group, version, rest[2]!)) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length > 0) return { kind: "unknown" };
    return {
      kind: "resource",
      group,
      version,
      namespace,
      resource: resource!,
      name,
      subresource,
      legacyWatch,
    };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (extra.length > 0 || resource === undefined) return { kind: "unknown" };
  return { kind: "resource", group, version, resource, name, subresource, legacyWatch };
}
