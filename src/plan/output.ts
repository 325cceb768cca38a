import { stringify } from "yaml";
import type { Action } from "../inventory/index.ts";
import { maskedValue, shownValue } from "../runtime/audit/index.ts";
import type { Result } from "./answer.ts";

/** The order the summary counts actions in. */
const ACTIONS: Action[] = [
  "create",
  "update",
  "replace",
  "adopt",
  "no change",
  "immutable",
  "blocked",
  "invalid",
  "error",
];

export function summary(results: readonly Result[]): Record<Action, number> {
  const counts = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>;
  for (const r of results) counts[r.action]++;
  return counts;
}

/** One line: `Plan: 1 to create, 2 to update, 5 unchanged; 1 invalid. 12 API calls.` (zeros left out). */
export function summaryLine(results: readonly Result[], apiCalls: number): string {
  const c = summary(results);
  const changes = [
    ...(["create", "update", "replace", "adopt"] as const)
      .filter((a) => c[a] > 0)
      .map((a) => `${c[a]} to ${a}`),
    `${c["no change"]} unchanged`,
  ];
  const problems = (["immutable", "blocked", "invalid", "error"] as const)
    .filter((a) => c[a] > 0)
    .map((a) => `${c[a]} ${a}`);
  return `Plan: ${changes.join(", ")}${problems.length > 0 ? `; ${problems.join(", ")}` : ""}. ${apiCalls} API calls.`;
}

/** A change as a line: `field: service -> desired`, values as the audit trail shows them (secrets masked). */
function changeLine(r: Result, c: Result["changes"][number]): string {
  return `${c.field}: ${shownValue([c.field], c.observed, r.writeOnly)} -> ${shownValue([c.field], c.desired, r.writeOnly)}`;
}

/** The plan as a table: action, resource, and the changes or the reason, one per line. */
export function table(results: readonly Result[]): string {
  const rows = results.map((r) => {
    const details = r.changes.map((c) => changeLine(r, c));
    if (r.message) details.push(r.message);
    return { action: r.action, resource: `${r.kind} ${r.namespace}/${r.name}`, details };
  });
  const wa = Math.max(6, ...rows.map((r) => r.action.length));
  const wr = Math.max(8, ...rows.map((r) => r.resource.length));
  const line = (a: string, b: string, c: string) => `${a.padEnd(wa)}  ${b.padEnd(wr)}  ${c}`.trimEnd();
  const out = [line("ACTION", "RESOURCE", "DETAILS")];
  for (const r of rows) {
    out.push(line(r.action, r.resource, r.details[0] ?? ""));
    for (const more of r.details.slice(1)) out.push(line("", "", more));
  }
  return out.join("\n");
}

/** The plan for tools (`-o json`, `-o yaml`): values as JSON, secrets masked. */
export function document(results: readonly Result[], apiCalls: number) {
  return {
    resources: results.map((r) => ({
      kind: r.kind,
      namespace: r.namespace,
      name: r.name,
      source: r.source,
      action: r.action,
      ...(r.href ? { href: r.href } : {}),
      changes: r.changes.map((c) => ({
        field: c.field,
        service: maskedValue([c.field], c.observed, r.writeOnly) ?? null,
        desired: maskedValue([c.field], c.desired, r.writeOnly) ?? null,
      })),
      ...(r.message ? { message: r.message } : {}),
    })),
    summary: summary(results),
    apiCalls,
  };
}

export function render(
  results: readonly Result[],
  apiCalls: number,
  format: "table" | "json" | "yaml",
): string {
  if (format === "json") return JSON.stringify(document(results, apiCalls), null, 2);
  if (format === "yaml") return stringify(document(results, apiCalls), { lineWidth: 0 }).trimEnd();
  return `${table(results)}\n\n${summaryLine(results, apiCalls)}`;
}
