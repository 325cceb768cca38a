import type { Format } from "./representation.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

interface Node<H> {
  fixed: Map<string, Node<H>>;
  param: { name: string; node: Node<H> } | null;
  handlers: Map<string, { template: string; handler: H }>;
}

export type RouteMatch<H> =
  | { kind: "found"; handler: H; template: string; params: Record<string, string>; suffix: Format | null }
  | { kind: "method-not-allowed"; allowed: string[]; template: string }
  | { kind: "unknown-format"; extension: string }
  | { kind: "not-found" };

const newNode = <H>(): Node<H> => ({ fixed: new Map(), param: null, handlers: new Map() });

function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.split("/").slice(1);
}

/**
 * Routes by path template (`/api/deployments/:id/clone`) in a segment trie, so matching costs
 * one Map lookup per segment whatever the number of routes. Every path also answers with a
 * `.json` / `.xml` suffix; a trailing slash is ignored (`/api/oauth2/`).
 */
export class Router<H> {
  private readonly root: Node<H> = newNode();
  readonly templates: Array<{ method: string; template: string }> = [];

  add(method: Method, template: string, handler: H): void {
    let node = this.root;
    for (const segment of segmentsOf(template)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (!node.param) node.param = { name, node: newNode() };
        else if (node.param.name !== name) {
          throw new Error(
            `route ${template}: parameter :${name} clashes with :${node.param.name} at the same place`,
          );
        }
        node = node.param.node;
      } else {
        let next = node.fixed.get(segment);
        if (!next) {
          next = newNode();
          node.fixed.set(segment, next);
        }
        node = next;
      }
    }
    if (node.handlers.has(method)) throw new Error(`route ${method} ${template} is registered twice`);
    node.handlers.set(method, { template, handler });
    this.templates.push({ method, template });
  }

  match(method: string, path: string): RouteMatch<H> {
    let suffix: Format | null = null;
    let bare = path;
    if (path.endsWith(".json")) {
      suffix = "json";
      bare = path.slice(0, -5);
    } else if (path.endsWith(".xml")) {
      suffix = "xml";
      bare = path.slice(0, -4);
    }
    const found = this.walk(bare);
    if (found) return this.pick(found, method, suffix);
    const ext = /\.([A-Za-z0-9]+)$/.exec(path);
    if (ext && suffix === null && this.walk(path.slice(0, -ext[0].length))) {
      return { kind: "unknown-format", extension: ext[1]! };
    }
    return { kind: "not-found" };
  }

  private pick(
    found: { node: Node<H>; params: Record<string, string> },
    method: string,
    suffix: Format | null,
  ): RouteMatch<H> {
    const entry = found.node.handlers.get(method);
    if (entry) {
      return {
        kind: "found",
        handler: entry.handler,
        template: entry.template,
        params: found.params,
        suffix,
      };
    }
    const first = found.node.handlers.values().next().value;
    return {
      kind: "method-not-allowed",
      allowed: [...found.node.handlers.keys()],
      template: first?.template ?? "",
    };
  }

  private walk(path: string): { node: Node<H>; params: Record<string, string> } | null {
    let node = this.root;
    const params: Record<string, string> = {};
    for (const segment of segmentsOf(path)) {
      const next = node.fixed.get(segment);
      if (next) {
        node = next;
        continue;
      }
      if (!node.param || segment === "") return null;
      try {
        params[node.param.name] = decodeURIComponent(segment);
      } catch {
        return null;
      }
      node = node.param.node;
    }
    return node.handlers.size > 0 ? { node, params } : null;
  }
}
