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

describe("needsReconcile: every annotation a user sets acts on an existing object at once", () => {
  const userSet = [
    [Annotation.paused, "true", "false"],
    [Annotation.reconcileRequestedAt, "2026-11-22T00:00:00Z", "2026-11-22T00:05:00Z"],
    [Annotation.resyncInterval, "30s", "5s"],
  ] as const;

  for (const [name, first, second] of userSet) {
    it(`${name} added, changed and removed`, () => {
      expect(needsReconcile(object({}), object({ [name]: first }))).toBe(true);
      expect(needsReconcile(object({ [name]: first }), object({ [name]: second }))).toBe(true);
      expect(needsReconcile(object({ [name]: first }), object({}))).toBe(true);
      expect(needsReconcile(object({ [name]: first }), object({ [name]: first }))).toBe(false);
    });
  }

  it("an href annotation removed from an object status knows no href of (an adoption given up)", () => {
    expect(needsReconcile(object({ [Annotation.href]: "/api/networks/01" }), object({}))).toBe(true);
  });

  it("an href annotation removed from an object status holds the href of (written back)", () => {
    expect(
      needsReconcile(
        object({ [Annotation.href]: "/api/networks/1" }, "/api/networks/1"),
        object({}, "/api/networks/1"),
      ),
    ).toBe(true);
  });

  it("create-pending set or cleared by the operator alone is not", () => {
    const pending = { [Annotation.createPending]: "2026-11-22T00:00:00Z" };
    expect(needsReconcile(object({}), object(pending))).toBe(false);
    expect(needsReconcile(object(pending), object({}))).toBe(false);
  });
});
