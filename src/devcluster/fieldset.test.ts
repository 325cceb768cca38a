import { describe, expect, it } from "vitest";
import { collectFields, FieldSet, pathString, removeAt, type Shape, valueAt } from "./fieldset.ts";

const shape: Shape = {
  properties: {
    spec: {
      properties: { tags: { listType: "set" }, ports: { listType: "map", mapKeys: ["port"], items: {} } },
    },
  },
};

describe("field sets", () => {
  const object = { spec: { size: 1, tags: ["a", "b"], ports: [{ port: 80, name: "http" }], list: [1, 2] } };

  it("collects leaves, set members and map-list items in fieldsV1 notation", () => {
    expect(collectFields(object, shape).toJSON()).toEqual({
      "f:spec": {
        "f:list": {},
        "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {}, "f:port": {} } },
        "f:size": {},
        "f:tags": { 'v:"a"': {}, 'v:"b"': {} },
      },
    });
  });

  it("round-trips through fieldsV1 JSON", () => {
    const set = collectFields(object, shape);
    expect(FieldSet.fromJSON(set.toJSON()).toJSON()).toEqual(set.toJSON());
    expect(FieldSet.fromJSON(set.toJSON()).has(["f:spec", "f:size"])).toBe(true);
  });

  it("claims maps an update created (the '.' entry), never metadata itself", () => {
    const set = collectFields({ metadata: { labels: { a: "1" } }, spec: { x: 1 } }, {}, {});
    expect(set.toJSON()).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:a": {} } },
      "f:spec": { ".": {}, "f:x": {} },
    });
  });

  it("prints paths as the real server does and finds and removes values by path", () => {
    expect(pathString(["f:spec", "f:ports", 'k:{"port":80}', "f:name"])).toBe(".spec.ports[port=80].name");
    expect(pathString(["f:status", "f:conditions", 'k:{"type":"Ready"}'])).toBe(
      '.status.conditions[type="Ready"]',
    );
    expect(pathString(["f:metadata", "f:finalizers", 'v:"x"'])).toBe('.metadata.finalizers[="x"]');
    const copy = structuredClone(object);
    expect(valueAt(copy, ["f:spec", "f:ports", 'k:{"port":80}', "f:name"])).toBe("http");
    expect(removeAt(copy, ["f:spec", "f:tags", 'v:"a"'])).toBe(true);
    expect(copy.spec.tags).toEqual(["b"]);
  });
});
