import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from "./selectors.ts";

describe("label selectors", () => {
  const labels = { app: "web", tier: "front", n: "5" };
  it.each([
    ["", true],
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app!=db", true],
    ["missing!=x", true],
    ["app in (web, db)", true],
    ["app notin (web)", false],
    ["tier", true],
    ["!tier", false],
    ["!missing", true],
    ["app=web,tier=back", false],
    ["n>4", true],
    ["n<5", false],
    [" app = web , tier ", true],
  ])("%s -> %s", (selector, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it.each(["a in b", "a in (b", "=x", "a=b,", "a notin", "a>b"])("rejects %j with a 400", (selector) => {
    try {
      parseLabelSelector(selector);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(400);
      expect((error as ApiError).message).toMatch(/^unable to parse requirement: /);
    }
  });
});

describe("field selectors", () => {
  const object = { metadata: { name: "a", namespace: "ns" }, type: "Opaque" };
  it("matches =, == and != on supported fields", () => {
    const supported = ["metadata.name", "metadata.namespace", "type"];
    expect(matchesFields(parseFieldSelector("metadata.name=a", supported), object)).toBe(true);
    expect(matchesFields(parseFieldSelector("metadata.name==b", supported), object)).toBe(false);
    expect(matchesFields(parseFieldSelector("metadata.namespace!=x,type=Opaque", supported), object)).toBe(
      true,
    );
  });
  it("refuses fields the resource does not support", () => {
    expect(() => parseFieldSelector("spec.size=1", ["metadata.name"])).toThrow(
      "field label not supported: spec.size",
    );
  });
});
