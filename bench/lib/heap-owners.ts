// Which of the operator's parts holds the live heap: each object's retained size (what would be
// freed with it) from the snapshot's dominator tree, summed by the top-level owner it belongs to.
// By constructor alone a heap says "strings and arrays"; by owner it says "the informer caches,
// the audit trail's queue, the reference index", which is what a change to the layout acts on.

import type { HeapSnapshot } from "./heap-summary.ts";

/** A snapshot's graph as typed arrays: nodes by ordinal, each node's edges in a range. */
interface Graph {
  count: number;
  selfSize: Float64Array;
  /** Each node's label: its type, and for an object or closure its constructor's name. */
  label: (node: number) => string;
  /** 1 for the snapshot's own nodes (the root, "(GC roots)" and the like), not the program's. */
  synthetic: Uint8Array;
  /** Edges of node n: targets[firstEdge[n] .. firstEdge[n + 1]), weak ones left out. */
  firstEdge: Uint32Array;
  targets: Uint32Array;
}

function graphOf(snap: HeapSnapshot): Graph {
  const meta = snap.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [typeAt, nameAt, sizeAt, edgesAt] = ["type", "name", "self_size", "edge_count"].map((f) =>
    meta.node_fields.indexOf(f),
  ) as [number, number, number, number];
  const [edgeTypeAt, toAt] = ["type", "to_node"].map((f) => meta.edge_fields.indexOf(f)) as [number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  // A weak edge keeps nothing alive; a shortcut is the devtools' own, not the heap's.
  const ignored = new Set([edgeTypes.indexOf("weak"), edgeTypes.indexOf("shortcut")]);
  const count = snap.nodes.length / nf;
  const selfSize = new Float64Array(count);
  const synthetic = new Uint8Array(count);
  const syntheticType = nodeTypes.indexOf("synthetic");
  const firstEdge = new Uint32Array(count + 1);
  const targets: number[] = [];
  for (let n = 0, e = 0; n < count; n++) {
    selfSize[n] = snap.nodes[n * nf + sizeAt]!;
    synthetic[n] = snap.nodes[n * nf + typeAt] === syntheticType ? 1 : 0;
    firstEdge[n] = targets.length;
    const end = e + snap.nodes[n * nf + edgesAt]! * ef;
    for (; e < end; e += ef) {
      if (!ignored.has(snap.edges[e + edgeTypeAt]!)) targets.push(snap.edges[e + toAt]! / nf);
    }
  }
  firstEdge[count] = targets.length;
  const label = (n: number) => {
    const type = nodeTypes[snap.nodes[n * nf + typeAt]!]!;
    return type === "object" || type === "closure"
      ? `${type} ${snap.strings[snap.nodes[n * nf + nameAt]!]}`
      : type;
  };
  return { count, selfSize, label, synthetic, firstEdge, targets: Uint32Array.from(targets) };
}

/** Nodes reachable from the root (node 0) in depth-first post-order. */
function postOrder(g: Graph): Uint32Array {
  const order: number[] = [];
  const next = new Uint32Array(g.count);
  const seen = new Uint8Array(g.count);
  const stack = [0];
  seen[0] = 1;
  next[0] = g.firstEdge[0]!;
  while (stack.length > 0) {
    const n = stack[stack.length - 1]!;
    if (next[n]! < g.firstEdge[n + 1]!) {
      const to = g.targets[next[n]!++]!;
      if (!seen[to]) {
        seen[to] = 1;
        next[to] = g.firstEdge[to]!;
        stack.push(to);
      }
    } else {
      stack.pop();
      order.push(n);
    }
  }
  return Uint32Array.from(order);
}

/**
 * Each reachable node's immediate dominator (Cooper, Harvey and Kennedy's iteration over the
 * reverse post-order); -1 for an unreachable one.
 */
function dominators(g: Graph, order: Uint32Array): Int32Array {
  const rank = new Int32Array(g.count).fill(-1);
  order.forEach((n, i) => {
    rank[n] = i;
  });
  // Each node's predecessors in a range of one array, as its edges are.
  const firstPredecessor = new Uint32Array(g.count + 1);
  for (const n of order)
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) firstPredecessor[g.targets[e]! + 1]!++;
  for (let n = 0; n < g.count; n++) firstPredecessor[n + 1]! += firstPredecessor[n]!;
  const predecessors = new Uint32Array(firstPredecessor[g.count]!);
  const filled = firstPredecessor.slice();
  for (const n of order)
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) predecessors[filled[g.targets[e]!]!++] = n;
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const meet = (a: number, b: number) => {
    while (a !== b) {
      while (rank[a]! < rank[b]!) a = idom[a]!;
      while (rank[b]! < rank[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = order.length - 2; i >= 0; i--) {
      const n = order[i]!;
      let dom = -1;
      for (let i = firstPredecessor[n]!; i < firstPredecessor[n + 1]!; i++) {
        const p = predecessors[i]!;
        if (idom[p] !== -1) dom = dom === -1 ? p : meet(p, dom);
      }
      if (dom !== idom[n]) {
        idom[n] = dom;
        changed = true;
      }
    }
  }
  return idom;
}

/**
 * The live heap by owner: every reachable object belongs to the highest object that alone keeps
 * it alive (its dominator just below the snapshot's synthetic roots), and owners are summed by
 * label (the informers' fourteen caches are one `object _ListWatch`). What several owners share
 * (a name held by a cache and an index) goes to the first object holding it alone, or to none:
 * it then counts as its own label.
 */
export function retainedByOwner(snap: HeapSnapshot): Map<string, number> {
  const g = graphOf(snap);
  const order = postOrder(g);
  const idom = dominators(g, order);
  const retained = new Float64Array(g.count);
  for (const n of order) {
    retained[n]! += g.selfSize[n]!;
    if (n !== 0) retained[idom[n]!]! += retained[n]!;
  }
  const owners = new Map<string, number>();
  for (const n of order) {
    if (g.synthetic[n] || !g.synthetic[idom[n]!]) continue;
    const label = g.label(n);
    owners.set(label, (owners.get(label) ?? 0) + retained[n]!);
  }
  return owners;
}
