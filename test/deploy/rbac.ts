import { createServer, request as httpRequest, type Server } from "node:http";

// RBAC as the apiserver decides it, for the tests that check what a program calls against the
// roles deploy/ ships.

export interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}
export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  namespace?: string;
  name?: string;
  line: string;
}

/** The apiserver's RequestInfo for a resource request (what RBAC decides on). */
export function attributesOf(method: string, url: string): Attributes | undefined {
  const u = new URL(url, "http://x");
  const parts = u.pathname.split("/").filter(Boolean);
  let group: string;
  let rest: string[];
  if (parts[0] === "api") {
    group = "";
    rest = parts.slice(2);
  } else if (parts[0] === "apis") {
    group = parts[1]!;
    rest = parts.slice(3);
  } else return undefined;
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length > 2) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, sub] = rest;
  if (!resource) return undefined;
  const watch = u.searchParams.get("watch");
  const verb =
    method === "GET"
      ? name
        ? "get"
        : watch === "true" || watch === "1"
          ? "watch"
          : "list"
      : (
          {
            POST: "create",
            PUT: "update",
            PATCH: "patch",
            DELETE: name ? "delete" : "deletecollection",
          } as Record<string, string>
        )[method]!;
  return {
    verb,
    group,
    resource: sub ? `${resource}/${sub}` : resource,
    namespace,
    name,
    line: `${method} ${u.pathname}`,
  };
}

export function allows(rules: Rule[], a: Attributes): boolean {
  return rules.some(
    (r) =>
      r.apiGroups.includes(a.group) &&
      r.resources.includes(a.resource) &&
      r.verbs.includes(a.verb) &&
      (!r.resourceNames || (a.name !== undefined && r.resourceNames.includes(a.name))),
  );
}

/**
 * An HTTP proxy on a free port of 127.0.0.1 in front of `target` (a devcluster's URL) that
 * records the RBAC attributes of every request it passes on into `seen`.
 */
export async function recordingProxy(target: string, seen: Attributes[]): Promise<Server> {
  const { hostname, port } = new URL(target);
  const proxy = createServer((req, res) => {
    const a = attributesOf(req.method ?? "GET", req.url ?? "/");
    if (a) seen.push(a);
    const upstream = httpRequest(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders(); // a watch answers headers long before its first event
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return proxy;
}
