/** One reference of the graph: resource `from` names resource `to` in its spec field `field`. */
export interface Edge {
  from: string;
  to: string;
  field: string;
  /** An after-create association (Reference.afterCreate): the one kind of reference a cycle may hold. */
  afterCreate: boolean;
}

/** The references of the graph, both ways, each list in a stable order. */
export interface EdgeLookup {
  /** The references `key` makes. */
  targets(key: string): readonly Edge[];
  /** The references made to `key`. */
  dependents(key: string): readonly Edge[];
}

/** Where one resource sits in the tree: under `parent`, hung there by `edge`. */
export interface Placement {
  key: string;
  parent: string;
  edge: Edge;
  /** `references`: the parent names it (above the target); `referencedBy`: it names the parent (below). */
  direction: "references" | "referencedBy";
}

/**
 * Places every resource related to `root` once. Below it: everything that references it, in
 * turn (its dependents, theirs, ...), each under the dependency it was named through last (a
 * Subnet naming both its Network and a RouteTable of that Network sits under the table), so the
 * tree reads in the order the operator makes them. Above it: what it references, in turn, each
 * under the first resource found naming it (breadth first: the target's own references come
 * first, so its Account is under it, once). A resource that both references the target and is
 * referenced by it (a Network's default RouteTable, through an after-create association) sits
 * below, as what it is at create time: a dependent.
 */
export function placeAll(root: string, edges: EdgeLookup): Placement[] {
  const above = closure(root, (key) =>
    edges
      .targets(key)
      .filter((e) => !e.afterCreate)
      .map((e) => e.to),
  );
  const below = placeBelow(root, edges, above);
  const taken = new Set([root, ...below.map((p) => p.key)]);
  return [...placeAbove(root, edges, taken), ...below];
}

/** Every key reachable from `root` through `next`, root excluded. */
function closure(root: string, next: (key: string) => string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [root];
  for (let key = queue.shift(); key !== undefined; key = queue.shift())
    for (const n of next(key))
      if (n !== root && !seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
  return seen;
}

/** Breadth first through what each references: each under the first that names it. */
function placeAbove(root: string, edges: EdgeLookup, taken: ReadonlySet<string>): Placement[] {
  const out: Placement[] = [];
  const seen = new Set(taken);
  const queue = [root];
  for (let key = queue.shift(); key !== undefined; key = queue.shift())
    for (const edge of edges.targets(key)) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      out.push({ key: edge.to, parent: key, edge, direction: "references" });
      queue.push(edge.to);
    }
  return out;
}

/**
 * The dependents, each under its deepest dependency among them (the longest chain from the
 * root). A depth-first walk (create-time references before after-create ones) drops the
 * references that close a cycle, so the rest orders them; `excluded` are the resources above.
 */
function placeBelow(root: string, edges: EdgeLookup, excluded: ReadonlySet<string>): Placement[] {
  const inTree = (key: string) => key === root || !excluded.has(key);
  const down = (key: string) =>
    [...edges.dependents(key)]
      .filter((e) => inTree(e.from))
      .sort((a, b) => Number(a.afterCreate) - Number(b.afterCreate));
  const kept: Edge[] = [];
  const finished: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (key: string) => {
    state.set(key, "open");
    for (const edge of down(key)) {
      const s = state.get(edge.from);
      if (s === "open") continue; // closes a cycle
      kept.push(edge);
      if (s === undefined) visit(edge.from);
    }
    state.set(key, "done");
    finished.push(key);
  };
  visit(root);
  // Reverse finishing order is a topological order of the kept edges: parents before dependents.
  const order = finished.reverse();
  const into = new Map<string, Edge[]>();
  for (const edge of kept) into.set(edge.from, [...(into.get(edge.from) ?? []), edge]);
  const depth = new Map([[root, 0]]);
  const out: Placement[] = [];
  for (const key of order.slice(1)) {
    // The deepest dependency; on a tie the create-time reference, then the first declared.
    let best: Edge | undefined;
    for (const edge of into.get(key) ?? []) {
      const d = depth.get(edge.to) ?? -1;
      const bestDepth = best ? (depth.get(best.to) ?? -1) : -2;
      if (d > bestDepth || (d === bestDepth && best!.afterCreate && !edge.afterCreate)) best = edge;
    }
    if (!best) continue;
    depth.set(key, depth.get(best.to)! + 1);
    out.push({ key, parent: best.to, edge: best, direction: "referencedBy" });
  }
  return out;
}
