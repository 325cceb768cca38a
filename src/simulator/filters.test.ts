import { describe, expect, it } from "vitest";
import type { SimError } from "./errors.ts";
import { applyFilters, compileFilters, type FilterSpec } from "./filters.ts";

interface Row {
  name: string;
  scope: string | null;
}
const rows: Row[] = [
  { name: "Web Tier", scope: "deployment" },
  { name: "web-2", scope: "account" },
  { name: "DB", scope: null },
];
const spec: FilterSpec<Row> = {
  name: { partial: true, get: (r) => r.name },
  scope: { partial: false, get: (r) => r.scope },
};
const run = (raw: unknown) => applyFilters(rows, compileFilters(raw, spec)).map((r) => r.name);

describe("filters", () => {
  it("partial is a case-insensitive substring; exact is equality", () => {
    expect(run(["name==WEB"])).toEqual(["Web Tier", "web-2"]);
    expect(run(["name==web tier"])).toEqual(["Web Tier"]);
    expect(run(["scope==account"])).toEqual(["web-2"]);
    expect(run(["scope==acc"])).toEqual([]);
  });

  it("<> excludes; several filters are ANDed; a single string is one filter", () => {
    expect(run(["name<>web"])).toEqual(["DB"]);
    expect(run(["name==web", "scope<>account"])).toEqual(["Web Tier"]);
    expect(run("scope==deployment")).toEqual(["Web Tier"]);
    expect(run(undefined)).toEqual(["Web Tier", "web-2", "DB"]);
    expect(run(["name=="])).toEqual(["Web Tier", "web-2", "DB"]);
  });

  it("a value may contain the operators", () => {
    expect(run(["name==a==b"])).toEqual([]);
  });

  const bad: Array<[unknown, string]> = [
    [
      ["colour==red"],
      "ParameterError: filter[] 'colour' is not a filter of this index (allowed: name, scope)",
    ],
    [["name=red"], "ParameterError: filter[] 'name=red' must be <field>==<value> or <field><><value>"],
    [[{ a: 1 }], "ParameterError: filter must be an Array of Strings"],
    [
      ["constructor==x"],
      "ParameterError: filter[] 'constructor' is not a filter of this index (allowed: name, scope)",
    ],
    [
      ["__proto__==x"],
      "ParameterError: filter[] '__proto__' is not a filter of this index (allowed: name, scope)",
    ],
    [{ a: "b" }, "ParameterError: filter must be an Array of Strings"],
  ];
  it.each(bad)("refuses %j with 400", (raw, message) => {
    try {
      compileFilters(raw, spec);
      throw new Error("expected an error");
    } catch (error) {
      expect((error as SimError).status).toBe(400);
      expect((error as SimError).body).toBe(message);
    }
  });

  it("scans 10,000 objects in one pass", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ name: `n${i}`, scope: i % 2 ? "a" : "b" }));
    expect(applyFilters(many, compileFilters(["name==N9999", "scope==a"], spec))).toEqual([
      { name: "n9999", scope: "a" },
    ]);
    expect(applyFilters(many, compileFilters(["scope<>a"], spec))).toHaveLength(5000);
  });
});
