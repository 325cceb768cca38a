import { describe, expect, it } from "vitest";
import type { Result } from "./answer.ts";
import { document, summaryLine, table } from "./output.ts";

const result = (r: Partial<Result>): Result => ({
  kind: "Deployment",
  namespace: "ns",
  name: "web",
  source: "x.yaml#1",
  action: "no change",
  changes: [],
  writeOnly: [],
  ...r,
});

const results: Result[] = [
  result({
    action: "update",
    changes: [
      { field: "description", observed: null, desired: "Web" },
      { field: "inputs", observed: { DB_PASSWORD: "text:old" }, desired: { DB_PASSWORD: "text:new" } },
    ],
  }),
  result({ kind: "Network", name: "main", action: "create", message: "after Deployment web is created" }),
  result({ kind: "Subnet", name: "a", action: "invalid", message: "spec.cidrBlock: bad" }),
  result({ kind: "Volume", name: "v" }),
];

describe("plan's output", () => {
  it("a table: action, resource, then each change (service -> desired) or the reason; secrets masked", () => {
    expect(table(results)).toBe(
      [
        "ACTION     RESOURCE           DETAILS",
        'update     Deployment ns/web  description: (none) -> "Web"',
        '                              inputs: {"DB_PASSWORD":"***"} -> {"DB_PASSWORD":"***"}',
        "create     Network ns/main    after Deployment web is created",
        "invalid    Subnet ns/a        spec.cidrBlock: bad",
        "no change  Volume ns/v",
      ].join("\n"),
    );
  });

  it("a summary line counting each action, and the API calls", () => {
    expect(summaryLine(results, 12)).toBe(
      "Plan: 1 to create, 1 to update, 1 unchanged; 1 invalid. 12 API calls.",
    );
  });

  it("a document for tools, values as JSON with secrets masked", () => {
    const doc = document(results, 3);
    expect(doc.resources[0]!.changes[1]).toEqual({
      field: "inputs",
      service: { DB_PASSWORD: "***" },
      desired: { DB_PASSWORD: "***" },
    });
    expect(doc.summary).toMatchObject({ create: 1, update: 1, "no change": 1, invalid: 1, blocked: 0 });
    expect(doc.apiCalls).toBe(3);
  });
});
