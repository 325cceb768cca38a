import { API_VERSION } from "../runtime/sdk/index.ts";
import { notReady, type TraceNode } from "./graph.ts";

export type TraceOutput = "table" | "wide" | "json";

/** The default table's message column is cut here (`-o wide` shows it whole), as Crossplane's trace does. */
const MESSAGE_WIDTH = 64;
/** Marks the rows that are not Ready (or missing), kubectl-style in its own leading column. */
const MARK = "!";

/**
 * The tree as kubectl prints a table: a header, columns padded to their widest cell and three
 * spaces apart; the NAME column draws the tree. `wide` adds the Ready condition's last transition
 * and shows messages whole.
 */
export function renderTable(root: TraceNode, wide: boolean): string {
  const header = ["NAME", "RELATION", "READY", "SYNCED", "REASON", "HREF", "MESSAGE"];
  const rows: { mark: string; cells: string[] }[] = [];
  const visit = (node: TraceNode, prefix: string, last: boolean, depth: number) => {
    const branch = depth === 0 ? "" : `${prefix}${last ? "└─ " : "├─ "}`;
    const message = oneLine(node.message);
    rows.push({
      mark: notReady(node) ? MARK : " ",
      cells: [
        `${branch}${node.kind}/${node.name}`,
        relation(node),
        node.ready,
        node.synced,
        node.reason,
        node.href,
        wide || message.length <= MESSAGE_WIDTH ? message : `${message.slice(0, MESSAGE_WIDTH - 3)}...`,
      ],
    });
    const childPrefix = depth === 0 ? "" : `${prefix}${last ? "   " : "│  "}`;
    node.children.forEach((child, i) => {
      visit(child, childPrefix, i === node.children.length - 1, depth + 1);
    });
  };
  visit(root, "", true, 0);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i]!.length)));
  const line = (mark: string, cells: string[]) =>
    `${mark} ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("   ")}`.trimEnd();
  return [line(" ", header), ...rows.map((r) => line(r.mark, r.cells))].join("\n");
}

/** The tree as JSON: each node's identity, conditions and href, its children nested. */
export function renderJson(root: TraceNode): string {
  const json = (node: TraceNode): Record<string, unknown> => ({
    apiVersion: API_VERSION,
    kind: node.kind,
    namespace: node.namespace,
    name: node.name,
    relation: node.relation,
    ...(node.field ? { field: node.field } : {}),
    ...(node.backField ? { backField: node.backField } : {}),
    found: node.found,
    ready: node.ready,
    synced: node.synced,
    reason: node.reason,
    message: node.message,
    href: node.href,
    children: node.children.map(json),
  });
  return JSON.stringify(json(root), null, 2);
}

/** `uses (field)`: the row above names this one; `used by (field)`: this one names the row above. */
function relation(node: TraceNode): string {
  if (node.relation === "root") return "";
  const [primary, back] = node.relation === "references" ? ["uses", "used by"] : ["used by", "uses"];
  return `${primary} (${node.field})${node.backField ? `, ${back} (${node.backField})` : ""}`;
}

/** Messages may hold line breaks (a service error's text): one table row each. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");
