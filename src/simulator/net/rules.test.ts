import { describe, expect, it } from "vitest";
import { checkWrapper, digitsOnly, type MemberRule, wrapperRule } from "./rules.ts";

const rule: MemberRule = wrapperRule({
  name: { type: "string", required: true },
  description: { type: "string", blank: true },
  kind: { type: "string", values: ["vpn", "internet"] },
  size: { type: "string", format: digitsOnly },
  priority: { type: "integer" },
  tags: { type: "array" },
  settings: { type: "string_hash" },
  nested: { type: "hash", members: { add: { type: "array", blank: true } } },
});

function check(body: Record<string, unknown>): string | undefined {
  return checkWrapper(body, "thing", rule)?.message;
}

describe("checkWrapper", () => {
  it.each<[string, Record<string, unknown>, string | undefined]>([
    ["accepts a minimal body", { thing: { name: "a" } }, undefined],
    ["ignores other top-level parameters", { thing: { name: "a" }, view: "x" }, undefined],
    ["missing wrapper", {}, "thing is required"],
    ["wrapper not a hash", { thing: "x" }, "thing must be a Hash"],
    ["empty wrapper", { thing: {} }, "thing must not be blank"],
    ["missing required member", { thing: { description: "" } }, "thing[name] is required"],
    ["blank required member", { thing: { name: "  " } }, "thing[name] must not be blank"],
    ["null required member", { thing: { name: null } }, "thing[name] must not be blank"],
    ["blank allowed", { thing: { name: "a", description: "" } }, undefined],
    ["null allowed where blank is", { thing: { name: "a", description: null } }, undefined],
    ["hash where string expected", { thing: { name: { x: "1" } } }, "thing[name] must be a String"],
    ["unknown member", { thing: { name: "a", colour: "red" } }, "thing[colour] is not allowed"],
    [
      "value list",
      { thing: { name: "a", kind: "VPN" } },
      "thing[kind] must be one of 'vpn', 'internet' (got 'VPN')",
    ],
    ["format", { thing: { name: "a", size: "10GB" } }, "thing[size] must be digits only (got '10GB')"],
    ["JSON number for a digits string", { thing: { name: "a", size: 10 } }, undefined],
    ["integer from form text", { thing: { name: "a", priority: "-3" } }, undefined],
    ["integer from JSON", { thing: { name: "a", priority: 3 } }, undefined],
    ["integer malformed", { thing: { name: "a", priority: "1.5" } }, "thing[priority] must be an Integer"],
    ["array ok", { thing: { name: "a", tags: ["x", "y"] } }, undefined],
    ["array given a string", { thing: { name: "a", tags: "x" } }, "thing[tags] must be an Array"],
    ["empty array not blank", { thing: { name: "a", tags: [] } }, "thing[tags] must not be blank"],
    ["array of hashes", { thing: { name: "a", tags: [{ a: 1 }] } }, "thing[tags][] must be a String"],
    ["string hash ok", { thing: { name: "a", settings: { a: "1", b: true } } }, undefined],
    [
      "string hash nested",
      { thing: { name: "a", settings: { a: { b: "1" } } } },
      "thing[settings][a] must be a String",
    ],
    [
      "nested unknown member",
      { thing: { name: "a", nested: { drop: [] } } },
      "thing[nested][drop] is not allowed",
    ],
    ["nested blank array allowed", { thing: { name: "a", nested: { add: [] } } }, undefined],
  ])("%s", (_reason, body, expected) => {
    expect(check(body)).toBe(expected);
  });
});
