import { describe, expect, it } from "vitest";
import { SimError } from "./errors.ts";
import { formats, type ParamSpec, validateParams } from "./validate.ts";

function failure(params: Record<string, unknown>, spec: ParamSpec): string {
  try {
    validateParams(params, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(SimError);
    expect((error as SimError).status).toBe(400);
    return (error as SimError).body;
  }
  throw new Error("expected a ParameterError");
}

const spec: ParamSpec = {
  thing: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      name: { type: "String", required: true, blank: false },
      kind: { type: "String", values: ["a", "b"] },
      cidr: { type: "String", format: formats.cidr },
      size: { type: "Integer", min: 1, max: 10 },
      tags: { type: "Array", items: { type: "String" } },
      attrs: { type: "Hash", unknown: "ignore", members: { priority: { type: "Integer" } } },
    },
  },
};

describe("validateParams", () => {
  it("answers the validated, coerced values and ignores unlisted top-level params", () => {
    expect(
      validateParams(
        { thing: { name: "n", size: "3", tags: ["x"], attrs: { priority: 2, other: "z" } }, account_id: "1" },
        spec,
      ),
    ).toEqual({ thing: { name: "n", size: 3, tags: ["x"], attrs: { priority: 2 } } });
    expect(validateParams({ thing: { name: 5 } }, spec)).toEqual({ thing: { name: "5" } });
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing wrapper", {}, "ParameterError: thing is required"],
    ["wrapper of the wrong type", { thing: ["x"] }, "ParameterError: thing must be a Hash"],
    ["empty wrapper", { thing: {} }, "ParameterError: thing must not be blank"],
    ["missing member", { thing: { kind: "a" } }, "ParameterError: thing[name] is required"],
    ["blank member", { thing: { name: "" } }, "ParameterError: thing[name] must not be blank"],
    ["whitespace-only member", { thing: { name: "  " } }, "ParameterError: thing[name] must not be blank"],
    ["member not a string", { thing: { name: { a: 1 } } }, "ParameterError: thing[name] must be a String"],
    [
      "value not allowed",
      { thing: { name: "n", kind: "c" } },
      "ParameterError: thing[kind] must be one of a, b (got 'c')",
    ],
    [
      "bad format",
      { thing: { name: "n", cidr: "10.0.0.0/123" } },
      "ParameterError: thing[cidr] must be an IPv4 CIDR block (dotted quad, slash, 1 to 2 digit prefix) (got '10.0.0.0/123')",
    ],
    [
      "not an integer",
      { thing: { name: "n", size: "3.5" } },
      "ParameterError: thing[size] must be an Integer",
    ],
    [
      "integer out of range",
      { thing: { name: "n", size: "11" } },
      "ParameterError: thing[size] must be between 1 and 10 (got 11)",
    ],
    [
      "array of the wrong type",
      { thing: { name: "n", tags: "x" } },
      "ParameterError: thing[tags] must be an Array",
    ],
    [
      "array element of the wrong type",
      { thing: { name: "n", tags: [{}] } },
      "ParameterError: thing[tags][0] must be a String",
    ],
    [
      "unknown member",
      { thing: { name: "n", colour: "red" } },
      "ParameterError: thing[colour] is not allowed",
    ],
    [
      "inherited name as member",
      { thing: { name: "n", toString: "x" } },
      "ParameterError: thing[toString] is not allowed",
    ],
    [
      "nested hash of the wrong type",
      { thing: { name: "n", attrs: "x" } },
      "ParameterError: thing[attrs] must be a Hash",
    ],
    [
      "nested integer",
      { thing: { name: "n", attrs: { priority: "high" } } },
      "ParameterError: thing[attrs][priority] must be an Integer",
    ],
  ];
  it.each(cases)("refuses %s naming the parameter and the rule", (_reason, params, message) => {
    expect(failure(params, spec)).toBe(message);
  });

  it("allows blank strings unless the rule says otherwise", () => {
    expect(validateParams({ d: "" }, { d: { type: "String", values: ["a"] } })).toEqual({ d: "" });
  });

  it("shared formats match the spec's shapes", () => {
    expect(formats.cidr.pattern.test("10.0.0.0/8")).toBe(true);
    expect(formats.cidr.pattern.test("10.0.0.0/8/1")).toBe(false);
    expect(formats.ipv4.pattern.test("1.2.3.4")).toBe(true);
    expect(formats.ipv4.pattern.test("1.2.3")).toBe(false);
    expect(formats.device.pattern.test("/dev/xvdb")).toBe(true);
    expect(formats.device.pattern.test("/dev/xvdd")).toBe(false);
    expect(formats.auditDate.pattern.test("2025/01/02 03:04:05 -0700")).toBe(true);
    expect(formats.digits.pattern.test("12a")).toBe(false);
  });
});
