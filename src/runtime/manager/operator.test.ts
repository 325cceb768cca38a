import { describe, expect, it } from "vitest";
import type { ManagedObject } from "../sdk/index.ts";
import { Annotation } from "../sdk/index.ts";
import { needsReconcile } from "./operator.ts";

const object = (annotations: Record<string, string>, statusHref?: string): ManagedObject => ({
  metadata: { name: "n", namespace: "ns", generation: 1, annotations },
  spec: {},
  status: statusHref ? { href: statusHref } : {},
});

describe("needsReconcile: which href annotation changes are a hand adoption", () => {
  it("the operator recording its create (href set, create-pending cleared in one write) is not", () => {
    const before = object({ [Annotation.createPending]: "2026-11-22T00:00:00Z" });
    expect(needsReconcile(before, object({ [Annotation.href]: "/api/networks/1" }))).toBe(false);
  });

  it("an href annotation set by hand, which status does not know, is", () => {
    expect(needsReconcile(object({}), object({ [Annotation.href]: "/api/networks/7" }))).toBe(true);
    expect(
      needsReconcile(
        object({ [Annotation.href]: "/api/networks/1" }, "/api/networks/1"),
        object({ [Annotation.href]: "/api/networks/7" }, "/api/networks/1"),
      ),
    ).toBe(true);
  });

  it("an annotation catching up with status.href is not", () => {
    expect(
      needsReconcile(
        object({ [Annotation.createPending]: "t" }, "/api/networks/1"),
        object({ [Annotation.href]: "/api/networks/1" }, "/api/networks/1"),
      ),
    ).toBe(false);
  });
});
