// Reads a V8 heap snapshot (.heapsnapshot JSON) into what the memory bench reports: the live
// heap's total and its bytes by kind of node, objects and closures by constructor, and the big
// strings apart (the bundle's own source text is one string the size of the code loaded).

import { retainedByOwner } from "./heap-owners.ts";

export interface HeapSnapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapSummary {
  mb: number;
  /** Self bytes by node type, objects and closures by constructor name. */
  byType: Map<string, number>;
  /** Retained bytes by top-level owner (heap-owners.ts). */
  byOwner: Map<string, number>;
}

const MB = 1024 * 1024;
/** A string this big is script source (a module's text), not data the operator holds. */
const SOURCE_STRING_BYTES = 64 * 1024;

export function summarize(snap: HeapSnapshot): HeapSummary {
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const byType = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const bytes = snap.nodes[i + sizeAt]!;
    const label =
      type === "object" || type === "closure"
        ? `${type} ${snap.strings[snap.nodes[i + nameAt]!]}`
        : type === "string" && bytes >= SOURCE_STRING_BYTES
          ? "string (source text)"
          : type;
    byType.set(label, (byType.get(label) ?? 0) + bytes);
    total += bytes;
  }
  return { mb: +(total / MB).toFixed(1), byType, byOwner: retainedByOwner(snap) };
}

/** The biggest entries of a summary (by type, or by owner), in MB. */
export function top(
  summary: HeapSummary,
  n = 12,
  by: "byType" | "byOwner" = "byType",
): Record<string, number> {
  return Object.fromEntries(
    [...summary[by]]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, bytes]) => [label, +(bytes / MB).toFixed(2)]),
  );
}

/** What grew most between two snapshots (by type, or by owner), in bytes per resource. */
export function growth(
  from: HeapSummary,
  to: HeapSummary,
  resources: number,
  n = 8,
  by: "byType" | "byOwner" = "byType",
): Record<string, number> {
  return Object.fromEntries(
    [...to[by]]
      .map(([label, bytes]) => [label, Math.round((bytes - (from[by].get(label) ?? 0)) / resources)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n),
  );
}
