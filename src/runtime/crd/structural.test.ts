import { describe, expect, it } from "vitest";
import * as z from "zod";
import { exactlyOne, managedSpec, managedStatusSchema, ref } from "../sdk/index.ts";
import { buildCrd, schemaOf } from "./build.ts";
import { isRe2Safe, StructuralSchemaError, structuralViolations, toStructural } from "./structural.ts";

describe("toStructural", () => {
  it("drops additionalProperties:false beside properties and keeps record value schemas", () => {
    const s = schemaOf(z.object({ a: z.string(), m: z.record(z.string(), z.string()) }).strict());
    expect(s.additionalProperties).toBeUndefined();
    expect((s.properties as Record<string, Record<string, unknown>>).m).toEqual({
      type: "object",
      additionalProperties: { type: "string" },
    });
    expect(structuralViolations(s)).toEqual([]);
  });

  it("inlines $ref definitions", () => {
    const shared = z.object({ name: z.string() }).meta({ id: "Shared" });
    const s = schemaOf(z.object({ a: shared, b: shared }));
    expect(JSON.stringify(s)).not.toContain("$ref");
    expect(structuralViolations(s)).toEqual([]);
  });

  it("refuses recursive schemas", () => {
    expect(() =>
      toStructural({
        $defs: { N: { type: "object", properties: { n: { $ref: "#/$defs/N" } } } },
        $ref: "#/$defs/N",
      }),
    ).toThrow(/recursive/);
  });

  it("gives every node a type; same-type unions merge, string|int becomes int-or-string", () => {
    const s = schemaOf(
      z.object({
        e: z.union([z.literal("a"), z.literal("b")]),
        n: z.union([z.string(), z.number().int()]),
        s: z.union([z.string().min(2), z.string().regex(/^x/)]),
        nul: z.string().nullable(),
      }),
    );
    const p = s.properties as Record<string, Record<string, unknown>>;
    expect(p.e).toMatchObject({ type: "string", enum: ["a", "b"] });
    expect(p.n).toMatchObject({ "x-kubernetes-int-or-string": true });
    expect(p.s?.type).toBe("string");
    expect(p.s?.anyOf).toEqual([{ minLength: 2 }, { pattern: "^x" }]);
    expect(p.nul).toMatchObject({ type: "string", nullable: true });
    expect(structuralViolations(s)).toEqual([]);
  });

  it("refuses a union that cannot be structural, naming the path", () => {
    expect(() => schemaOf(z.object({ x: z.union([z.string(), z.boolean()]) }))).toThrow(
      StructuralSchemaError,
    );
    expect(() => schemaOf(z.object({ x: z.union([z.string(), z.boolean()]) }))).toThrow(/\.x/);
  });

  it("refuses patterns RE2 cannot compile", () => {
    expect(isRe2Safe("^a(?=b)")).toBe(false);
    expect(isRe2Safe("^(a)\\1$")).toBe(false);
    expect(isRe2Safe("^/dev/xvd[bcefghij]$")).toBe(true);
    expect(() => schemaOf(z.object({ x: z.string().regex(/^(?!no)/) }))).toThrow(/RE2/);
  });

  it("drops zod's safe-integer bounds and keeps real ones", () => {
    const p = schemaOf(z.object({ i: z.number().int().min(1) })).properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(p.i).toEqual({ type: "integer", minimum: 1 });
  });

  it("keeps x-kubernetes extensions and CEL rules from .meta()", () => {
    const spec = managedSpec({ aRef: ref("A").optional(), aHref: z.string().optional() }, [
      exactlyOne(["aRef", "aHref"]),
    ]);
    const s = schemaOf(spec);
    expect(s["x-kubernetes-validations"]).toEqual([
      {
        rule: "(has(self.aRef) ? 1 : 0) + (has(self.aHref) ? 1 : 0) == 1",
        message: "exactly one of aRef, aHref must be set",
      },
    ]);
    const status = schemaOf(managedStatusSchema);
    const sp = status.properties as Record<string, Record<string, unknown>>;
    expect(sp.atProvider?.["x-kubernetes-preserve-unknown-fields"]).toBe(true);
    expect(sp.conditions?.["x-kubernetes-list-type"]).toBe("map");
  });

  it("the checker finds each violation", () => {
    expect(
      structuralViolations({
        type: "object",
        properties: { a: {}, b: { type: "string", pattern: "(?<=x)" } },
        additionalProperties: false,
        anyOf: [{ type: "string" }],
      }),
    ).toEqual([
      ".: additionalProperties beside properties",
      "[anyOf0]: type inside a combinator",
      ".a: no type",
      ".b: pattern not RE2-safe",
    ]);
  });
});

describe("buildCrd", () => {
  it("has status subresource, category, short names and standard printer columns", () => {
    const crd = buildCrd({
      kind: "Thing",
      plural: "things",
      singular: "thing",
      shortNames: ["svcthing"],
      description: "A thing.",
      spec: managedSpec({ size: z.number().int().describe("How big.") }),
      status: managedStatusSchema,
    });
    expect(crd.metadata.name).toBe("things.cloud.svc.io");
    expect(crd.spec.names.categories).toEqual(["svccloud"]);
    const v = crd.spec.versions[0];
    expect(v.subresources).toEqual({ status: {} });
    expect(v.additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual([
      "Ready",
      "Synced",
      "Href",
      "Age",
    ]);
    expect(structuralViolations(v.schema.openAPIV3Schema)).toEqual([]);
    expect(v.schema.openAPIV3Schema.properties.spec.properties.deletionPolicy).toMatchObject({
      type: "string",
      enum: ["Delete", "Orphan"],
      default: "Delete",
    });
  });
});
