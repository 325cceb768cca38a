import { describe, expect, it } from "vitest";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { compareHrefs, scopingOf, unsupported } from "./inventory.ts";

const toy = (
  scope: (spec: { cloudHref?: string }) => string | undefined,
  extra: Partial<AnyManagedKind> = {},
) => ({ kind: "Toy", index: { scope, list: async () => [] }, ...extra }) as unknown as AnyManagedKind;

describe("which kinds export reads, and how", () => {
  it("asks the kind's own index scope: account-wide, per cloud, or neither", () => {
    expect(scopingOf(toy(() => ""))).toBe("account");
    expect(scopingOf(toy((s) => s.cloudHref))).toBe("cloud");
    expect(scopingOf(toy(() => "/api/stored_scripts/1"))).toBeUndefined();
    expect(unsupported(toy(() => undefined))).toBe(
      "Toy's collection is scoped by something other than the account or a cloud, and the kind declares no export scopes",
    );
  });

  it("a kind says why it cannot be exported, or which scopes hold its objects, through its export hook", () => {
    expect(unsupported(toy(() => "", { export: { unsupported: "its content is write-only" } }))).toBe(
      "its content is write-only",
    );
    expect(scopingOf(toy(() => undefined, { export: { scopes: async () => [] } }))).toBe("hook");
  });

  it("orders hrefs by their numbers", () => {
    expect(["/api/x/10", "/api/x/2", "/api/x/1"].sort(compareHrefs)).toEqual([
      "/api/x/1",
      "/api/x/2",
      "/api/x/10",
    ]);
  });
});
