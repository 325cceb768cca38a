import { describe, expect, it } from "vitest";
import { admit, type JSONSchemaProps } from "./index.ts";
import { meta, obj, schemaWithSpec } from "./index-cases.testing.ts";

describe("robustness", () => {
  it("admits against a schema with keywords of the wrong type without throwing (they are ignored)", () => {
    const schema = {
      type: "object",
      properties: {
        ...meta,
        spec: {
          type: "object",
          required: "name",
          enum: "x",
          properties: { name: { type: "string", pattern: 5 } },
          "x-kubernetes-validations": "nope",
        },
      },
    } as unknown as JSONSchemaProps;
    const r = admit({ schema, object: obj({ name: "a" }) });
    expect(r.causes).toEqual([]);
    expect(r.object.spec).toEqual({ name: "a" });
  });
});

describe("ownership of the input object", () => {
  const schema = schemaWithSpec({
    type: "object",
    properties: { known: { type: "string" }, size: { type: "integer", default: 3 } },
  });

  it("never changes the input unless it is handed over", () => {
    const input = obj({ known: "x", extra: 1 });
    const result = admit({ schema, object: input });
    expect(input.spec).toEqual({ known: "x", extra: 1 });
    expect(result.object.spec).toEqual({ known: "x", size: 3 });
    expect(result.unknownFields).toEqual(["spec.extra"]);
  });

  it("prunes and defaults a handed-over object in place, with the same answer", () => {
    const input = obj({ known: "x", extra: 1 });
    const result = admit({ schema, object: input, owned: true });
    expect(result.object).toBe(input);
    expect(input.spec).toEqual({ known: "x", size: 3 });
    expect(result.unknownFields).toEqual(["spec.extra"]);
  });
});
