import type { Format } from "./representation.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

interface Entry<H> {
  template: string;
  handler: H;
  /** The route's own parameter names, in path order. */
  names: string[];
}

interface Node<H> {
  fixed: Map<string, Node<H>>;
  /** The child for a parameter segment; each route names its parameters itself (`:id`, `:instance_id`). */
  param: Node<H> | null;
  handlers: Map<string, Entry<H>>;
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
 * Routes by path template (`/api/deployments/:id/clone`) in a segment trie: matching costs
 * one Map lookup per segment whatever the number of routes (a fixed segment is tried before
 * a parameter, with backtracking). Every path also answers with a `.json` / `.xml` suffix;
 * a trailing slash is ignored (`/api/oauth2/`).
 */
export class Router<H> {
  private readonly root: Node<H> = newNode();
  readonly templates: Array<{ method: string; template: string }> = [];

  add(method: Method, template: string, handler: H): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of segmentsOf(template)) {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        node.param ??= newNode();
        node = node.param;
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
    node.handlers.set(method, { template, handler, names });
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
    if (suffix === null) {
      // `/api/deployments/1.yaml`: a format suffix this service does not serve (letters only,
      // so ids with dots or digits after a dot still reach their route).
      const ext = /\.([A-Za-z]+)$/.exec(path);
      if (ext && this.find(path.slice(0, -ext[0].length)))
        return { kind: "unknown-format", extension: ext[1]! };
    }
    const found = this.find(bare);
    return found ? this.pick(found, method, suffix) : { kind: "not-found" };
  }

  private pick(
    found: { node: Node<H>; values: string[] },
    method: string,
    suffix: Format | null,
  ): RouteMatch<H> {
    const entry = found.node.handlers.get(method);
    if (entry) {
      const params: Record<string, string> = {};
      for (let i = 0; i < entry.names.length; i++) params[entry.names[i]!] = found.values[i]!;
      return { kind: "found", handler: entry.handler, template: entry.template, params, suffix };
    }
    const first = found.node.handlers.values().next().value;
    return {
      kind: "method-not-allowed",
      allowed: [...found.node.handlers.keys()],
      template: first?.template ?? "",
    };
  }

  private find(path: string): { node: Node<H>; values: string[] } | null {
    const segments = segmentsOf(path);
    const values: string[] = [];
    const node = this.walk(this.root, segments, 0, values);
    return node ? { node, values } : null;
  }

  private walk(node: Node<H>, segments: string[], index: number, values: string[]): Node<H> | null {
    if (index === segments.length) return node.handlers.size > 0 ? node : null;
    const segment = segments[index]!;
    const fixed = node.fixed.get(segment);
    if (fixed) {
      const found = this.walk(fixed, segments, index + 1, values);
      if (found) return found;
    }
    if (!node.param || segment === "") return null;
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    values.push(value);
    const found = this.walk(node.param, segments, index + 1, values);
    if (!found) values.pop();
    return found;
  }
}
