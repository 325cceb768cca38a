import { describe, expect, it } from "vitest";
import {
  applyConfiguration,
  type ManagedFieldsEntry,
  recordUpdate,
  sortEntries,
  startingEntries,
} from "./managed-fields.ts";
import type { Obj } from "./meta.ts";

const ctx = (manager: string, time: string) => ({ manager, apiVersion: "v1", shape: {}, time });
const withEntries = (object: Obj, entries: ManagedFieldsEntry[]): Obj => ({
  ...object,
  metadata: { ...(object.metadata as Obj), managedFields: entries },
});

describe("recordUpdate", () => {
  it("leaves an entry the write does not touch as it was, and takes changed fields from others", () => {
    const v1 = { metadata: { name: "a" }, spec: { x: 1, y: 1 } };
    const e1 = recordUpdate(undefined, v1, ctx("alice", "t1"));
    expect(e1).toHaveLength(1);
    expect(e1[0]!.fieldsV1).toEqual({ "f:spec": { ".": {}, "f:x": {}, "f:y": {} } });
    const v2 = { metadata: { name: "a", labels: { l: "1" } }, spec: { x: 1, y: 1 } };
    const e2 = recordUpdate(withEntries(v1, e1), v2, ctx("bob", "t2"));
    expect(e2[0]).toEqual(e1[0]);
    expect(e2[1]).toEqual(expect.objectContaining({ manager: "bob", time: "t2" }));
    const v3 = { metadata: { name: "a", labels: { l: "1" } }, spec: { x: 2, y: 1 } };
    const e3 = recordUpdate(withEntries(v2, e2), v3, ctx("bob", "t3"));
    expect(e3[0]).toEqual({ ...e1[0], fieldsV1: { "f:spec": { ".": {}, "f:y": {} } } });
    expect(e3[1]).toEqual(expect.objectContaining({ manager: "bob", time: "t3" }));
    expect((e3[1]!.fieldsV1["f:spec"] as Obj)["f:x"]).toEqual({});
  });

  it("still normalizes a client-sent fieldsV1 the write does not touch", () => {
    const sent: ManagedFieldsEntry = {
      manager: "kubectl",
      operation: "Update",
      apiVersion: "v1",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": { "f:y": {}, "f:x": { ".": {} } } },
    };
    const old = withEntries({ metadata: { name: "a" }, spec: { x: 1, y: 1 } }, [sent]);
    const next = { metadata: { name: "a" }, status: { ok: true } };
    const entries = recordUpdate(old, { ...next, spec: { x: 1, y: 1 } }, ctx("op", "t"));
    expect(Object.keys(entries[0]!.fieldsV1["f:spec"] as Obj)).toEqual(["f:x", "f:y"]);
    expect(entries[0]!.fieldsV1).toEqual({ "f:spec": { "f:x": {}, "f:y": {} } });
  });
});

describe("startingEntries", () => {
  const live = [
    { manager: "a", operation: "Update", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} },
  ];
  const old = withEntries({ metadata: { name: "x" } }, live as ManagedFieldsEntry[]);
  const sent = [{ manager: "b", operation: "Apply", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} }];

  it("takes the request's entries, resets on [] and [{}], and keeps the live ones otherwise", () => {
    expect(startingEntries(sent, old)).toBe(sent);
    expect(startingEntries([], old)).toEqual([]);
    expect(startingEntries([{}], old)).toEqual([]);
    expect(startingEntries(undefined, old)).toEqual(live);
    expect(startingEntries([{ manager: "b", operation: "Delete" }], old)).toEqual(live);
    expect(startingEntries([{}, ...sent], old)).toEqual(live);
    expect(startingEntries(sent, old, "status")).toEqual(live);
  });
});

describe("applyConfiguration", () => {
  const apply = (live: Obj | undefined, applied: Obj, manager: string) =>
    applyConfiguration(live, applied, { manager, apiVersion: "v1", shape: {}, time: "t", force: false });

  it("drops a map the applier stops owning only when nothing is left in it", () => {
    // What kubectl's client-side-apply upgrade leaves: the applier owns the maps themselves too.
    const owned = {
      "f:metadata": { "f:annotations": { ".": {}, "f:last": {} } },
      "f:spec": { ".": {}, "f:size": {} },
    };
    const live = withEntries(
      { metadata: { name: "x", annotations: { last: "{}" } }, spec: { size: 3, color: "red" } },
      [{ manager: "m", operation: "Apply", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: owned }],
    );
    const { merged } = apply(live, { metadata: { name: "x" }, spec: { size: 3 } }, "m");
    // spec keeps the applied size and the color nobody claimed; the annotations map is gone.
    expect(merged).toEqual({ spec: { size: 3, color: "red" } });
  });

  it("drops an atomic list the applier alone stops applying", () => {
    const first = apply(undefined, { spec: { size: 4, tags: ["x"] } }, "alpha");
    const live = withEntries({ metadata: { name: "x" }, ...first.merged }, first.entries);
    expect(apply(live, { spec: { size: 4 } }, "alpha").merged).toEqual({ spec: { size: 4 } });
  });

  it("drops a list-map item the applier stops applying, its keys with it", () => {
    const shape = {
      properties: {
        spec: { properties: { ports: { listType: "map" as const, mapKeys: ["name"], items: {} } } },
      },
    };
    const run = (live: Obj | undefined, applied: Obj, manager: string) =>
      applyConfiguration(live, applied, { manager, apiVersion: "v1", shape, time: "t", force: false });
    const first = run(undefined, { spec: { ports: [{ name: "http", port: 80 }] } }, "alpha");
    const v1 = withEntries({ metadata: { name: "x" }, ...first.merged }, first.entries);
    const second = run(v1, { spec: { ports: [{ name: "https", port: 443 }] } }, "beta");
    const v2 = withEntries({ metadata: { name: "x" }, ...second.merged }, second.entries);
    expect((v2.spec as Obj).ports).toHaveLength(2);
    const third = run(v2, { spec: { size: 4 } }, "beta");
    expect(third.merged.spec).toEqual({ ports: [{ name: "http", port: 80 }], size: 4 });
  });
});

describe("sortEntries", () => {
  const entry = (manager: string, operation: "Apply" | "Update", time?: string): ManagedFieldsEntry => ({
    manager,
    operation,
    apiVersion: "v1",
    fieldsType: "FieldsV1",
    fieldsV1: {},
    ...(time ? { time } : {}),
  });

  it("puts Apply first, then the older, then by manager within the same second", () => {
    const sorted = sortEntries([
      entry("kubectl-label", "Update", "2025-01-01T00:00:01Z"),
      entry("kubectl-annotate", "Update", "2025-01-01T00:00:01Z"),
      entry("other", "Apply", "2025-01-01T00:00:09Z"),
      entry("kubectl-patch", "Update", "2025-01-01T00:00:02Z"),
      entry("early", "Update", "2025-01-01T00:00:00Z"),
      entry("untimed", "Update"),
    ]);
    expect(sorted.map((e) => e.manager)).toEqual([
      "other",
      "untimed",
      "early",
      "kubectl-annotate",
      "kubectl-label",
      "kubectl-patch",
    ]);
  });
});
