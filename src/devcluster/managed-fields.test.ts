import { describe, expect, it } from "vitest";
import { type ManagedFieldsEntry, recordUpdate } from "./managed-fields.ts";
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
