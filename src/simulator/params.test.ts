import { describe, expect, it } from "vitest";
import { buildParams, mergeParams, parseFormEncoded } from "./params.ts";

describe("parseFormEncoded", () => {
  it("nests bracket notation", () => {
    expect(parseFormEncoded("deployment[name]=x&deployment[description]=a+b&view=default")).toEqual({
      deployment: { name: "x", description: "a b" },
      view: "default",
    });
  });

  it("starts a new hash when a key repeats inside x[] (Rails semantics)", () => {
    expect(
      parseFormEncoded(
        "inputs[][name]=A&inputs[][value]=1&inputs[][name]=B&inputs[][value]=2&inputs[][name]=C",
      ),
    ).toEqual({
      inputs: [{ name: "A", value: "1" }, { name: "B", value: "2" }, { name: "C" }],
    });
  });

  it("collects repeated x[] into an array, in order, beyond qs's default array limit", () => {
    const many = Array.from({ length: 30 }, (_, i) => `filter[]=name==${i}`).join("&");
    const parsed = parseFormEncoded(many) as { filter: string[] };
    expect(parsed.filter).toHaveLength(30);
    expect(parsed.filter[29]).toBe("name==29");
  });

  it("keeps nested arrays inside hashes", () => {
    expect(
      parseFormEncoded(
        "route[cloud_specific_attributes][instance_tags][]=a&route[cloud_specific_attributes][instance_tags][]=b",
      ),
    ).toEqual({
      route: { cloud_specific_attributes: { instance_tags: ["a", "b"] } },
    });
  });

  it("keeps operators and encoded characters in values", () => {
    expect(parseFormEncoded("filter[]=name%3D%3Da%26b&filter[]=x<>y")).toEqual({
      filter: ["name==a&b", "x<>y"],
    });
  });

  it("drops prototype-polluting keys", () => {
    const parsed = parseFormEncoded("__proto__[polluted]=1&a=1");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.a).toBe("1");
  });

  it("empty text is no params", () => {
    expect(parseFormEncoded("")).toEqual({});
  });
});

describe("buildParams", () => {
  it("places non-string values (file parts) at their bracketed names", () => {
    const file = { kind: "file", filename: "a.txt" };
    expect(
      buildParams([
        ["att[filename]", "a.txt"],
        ["att[content]", file],
      ]),
    ).toEqual({
      att: { filename: "a.txt", content: file },
    });
  });
});

describe("mergeParams", () => {
  it("lets the body win and merges hashes member by member", () => {
    expect(
      mergeParams({ a: { x: "1", y: "1" }, b: "q", c: ["1"] }, { a: { y: "2" }, b: "body", c: ["2"] }),
    ).toEqual({
      a: { x: "1", y: "2" },
      b: "body",
      c: ["2"],
    });
  });
});
