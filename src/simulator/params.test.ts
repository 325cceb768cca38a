import { describe, expect, it } from "vitest";
import { SimError } from "./errors.ts";
import { buildParams, checkJsonLimits, mergeParams, PARAM_LIMITS, parseFormEncoded } from "./params.ts";

/** The SimError a call throws (fails the test when it throws nothing else). */
function refusal(call: () => unknown): SimError {
  try {
    call();
  } catch (error) {
    if (error instanceof SimError) return error;
    throw error;
  }
  throw new Error("expected a SimError");
}

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

describe("parameter limits", () => {
  const form = (n: number) =>
    Array.from({ length: n / 2 }, (_, i) => `inputs[][name]=n${i}&inputs[][value]=v${i}`).join("&");

  it("parses a form of exactly the entry limit, in order, Rails semantics kept", () => {
    const parsed = parseFormEncoded(form(PARAM_LIMITS.entries)) as {
      inputs: Array<{ name: string; value: string }>;
    };
    expect(parsed.inputs).toHaveLength(PARAM_LIMITS.entries / 2);
    expect(parsed.inputs[0]).toEqual({ name: "n0", value: "v0" });
    expect(parsed.inputs.at(-1)).toEqual({
      name: `n${PARAM_LIMITS.entries / 2 - 1}`,
      value: `v${PARAM_LIMITS.entries / 2 - 1}`,
    });
  });

  it("refuses one entry more with a 400 naming the limit", () => {
    const error = refusal(() => parseFormEncoded(`${form(PARAM_LIMITS.entries)}&x=1`, "the form body"));
    expect([error.status, error.body]).toEqual([
      400,
      "ParameterError: the form body has more than 10000 entries (the limit)",
    ]);
    expect(refusal(() => parseFormEncoded(form(100_000))).status).toBe(400);
  });

  it("refuses a name nesting deeper than the depth limit, naming it", () => {
    const name = (levels: number) => `a${"[b]".repeat(levels)}`;
    expect(parseFormEncoded(`${name(PARAM_LIMITS.depth)}=1`)).toHaveProperty("a.b.b");
    const error = refusal(() => parseFormEncoded(`${name(PARAM_LIMITS.depth + 1)}=1`));
    expect(error.status).toBe(400);
    expect(error.body).toBe(
      `ParameterError: ${name(PARAM_LIMITS.depth + 1)} nests deeper than 20 levels (the limit)`,
    );
    expect(refusal(() => parseFormEncoded(`${"[".repeat(100_000)}=1`)).body).toMatch(
      /\.\.\. nests deeper than 20 levels/,
    );
  });

  it("builds arrays from explicit indexes in index order, and hashes from mixed keys", () => {
    expect(parseFormEncoded("a[2]=x&a[0]=y&b[0]=1&b[k]=2")).toEqual({ a: ["y", "x"], b: { 0: "1", k: "2" } });
    expect(parseFormEncoded("a[4294967296]=x")).toEqual({ a: { 4294967296: "x" } });
  });

  it("holds JSON bodies to the same limits, without recursion", () => {
    checkJsonLimits({ a: Array.from({ length: PARAM_LIMITS.entries - 1 }, (_, i) => i) });
    expect(refusal(() => checkJsonLimits({ a: Array.from({ length: 100_000 }, (_, i) => i) })).body).toBe(
      "ParameterError: the JSON body has more than 10000 entries (the limit)",
    );
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusal(() => checkJsonLimits({ a: deep })).body).toBe(
      "ParameterError: the JSON body nests deeper than 20 levels (the limit)",
    );
    let ok: unknown = 1;
    for (let i = 0; i < PARAM_LIMITS.depth - 1; i++) ok = [ok];
    checkJsonLimits({ a: ok });
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
