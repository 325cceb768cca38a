import { describe, expect, it } from "vitest";
import { retainedByOwner } from "../../bench/lib/heap-owners.ts";
import type { HeapSnapshot } from "../../bench/lib/heap-summary.ts";

const NODE_TYPES = ["hidden", "array", "string", "object", "code", "closure", "synthetic"];
const EDGE_TYPES = ["context", "element", "property", "internal", "hidden", "shortcut", "weak"];

/** A snapshot of the given nodes ([type, name, self size]) and edges ([from, to, edge type]). */
function snapshotOf(nodes: [string, string, number][], edges: [number, number, string][]): HeapSnapshot {
  const strings = [...new Set(nodes.map(([, name]) => name))];
  const flatNodes: number[] = [];
  const flatEdges: number[] = [];
  nodes.forEach(([type, name, size], n) => {
    const out = edges.filter(([from]) => from === n);
    flatNodes.push(NODE_TYPES.indexOf(type), strings.indexOf(name), n, size, out.length);
    for (const [, to, edgeType] of out) flatEdges.push(EDGE_TYPES.indexOf(edgeType), 0, to * 5);
  });
  return {
    snapshot: {
      meta: {
        node_fields: ["type", "name", "id", "self_size", "edge_count"],
        node_types: [NODE_TYPES],
        edge_fields: ["type", "name_or_index", "to_node"],
        edge_types: [EDGE_TYPES],
      },
    },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
  };
}

describe("retainedByOwner", () => {
  it("gives each object to the one owner that alone keeps it alive, owners summed by constructor", () => {
    const snap = snapshotOf(
      [
        ["synthetic", "", 0], // 0: the root
        ["synthetic", "(GC roots)", 0], // 1
        ["object", "Cache", 100], // 2
        ["object", "Index", 50], // 3
        ["object", "Entry", 30], // 4: the cache's alone (the index's edge to it is weak)
        ["string", "shared", 20], // 5: held by the cache and the index
        ["array", "", 40], // 6: the index's alone
        ["object", "Cache", 10], // 7: a second cache
        ["string", "own", 5], // 8: the second cache's
        ["object", "Lost", 999], // 9: unreachable
      ],
      [
        [0, 1, "element"],
        [1, 2, "element"],
        [1, 3, "element"],
        [1, 7, "element"],
        [2, 4, "property"],
        [2, 5, "property"],
        [3, 5, "property"],
        [3, 6, "internal"],
        [3, 4, "weak"],
        [7, 8, "property"],
      ],
    );
    expect(Object.fromEntries(retainedByOwner(snap))).toEqual({
      "object Cache": 100 + 30 + 10 + 5,
      "object Index": 50 + 40,
      string: 20,
    });
  });

  it("follows chains deeper than one level: an owner retains its whole subtree", () => {
    const snap = snapshotOf(
      [
        ["synthetic", "", 0],
        ["object", "Operator", 8],
        ["object", "Map", 16],
        ["array", "", 64],
        ["object", "Object", 24],
        ["string", "k", 3],
      ],
      [
        [0, 1, "element"],
        [1, 2, "property"],
        [2, 3, "internal"],
        [3, 4, "element"],
        [3, 5, "element"],
        [4, 5, "property"],
      ],
    );
    expect(Object.fromEntries(retainedByOwner(snap))).toEqual({ "object Operator": 8 + 16 + 64 + 24 + 3 });
  });
});
