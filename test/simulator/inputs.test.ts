import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

type Input = { name: string; value: string };
const PREFIXES = [
  "/api/deployments/1/inputs",
  "/api/server_templates/1/inputs",
  "/api/clouds/1/instances/1/inputs",
];

async function inputs(prefix: string, view?: string): Promise<Input[]> {
  const res = await h.admin.get(prefix, view ? { query: { view } } : {});
  expect(res.status).toBe(200);
  return res.json<Input[]>();
}

describe("inputs index", () => {
  it.each(PREFIXES)("%s answers the input collection in both views", async (prefix) => {
    const res = await h.admin.get(prefix);
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.svc.input+json;type=collection;charset=utf-8",
    );
    const v1 = res.json<Input[]>();
    const v2 = await inputs(prefix, "inputs_2_0");
    expect(v1.length).toBe(v2.length);
    expect(v1.length).toBeGreaterThan(0);
    const xml = await h.admin.get(`${prefix}.xml`);
    expect(xml.text).toMatch(/<inputs><input><name>/);
    expect((await h.admin.get(prefix, { query: { view: "inputs" } })).status).toBe(400);
  });

  it("default view renders unset as text: and ignore as ignore:$ignore; inputs_2_0 as blank and ignore", async () => {
    expect(await inputs(PREFIXES[0]!)).toContainEqual({ name: "LOG_LEVEL", value: "text:" });
    expect(await inputs(PREFIXES[0]!)).toContainEqual({ name: "FEATURE_FLAGS", value: "ignore:$ignore" });
    expect(await inputs(PREFIXES[0]!, "inputs_2_0")).toContainEqual({ name: "LOG_LEVEL", value: "blank" });
    expect(await inputs(PREFIXES[0]!, "inputs_2_0")).toContainEqual({
      name: "FEATURE_FLAGS",
      value: "ignore",
    });
  });

  it("unknown owners are 422", async () => {
    expect((await h.admin.get("/api/deployments/9/inputs")).text).toBe(
      "ResourceNotFound: Couldn't find Deployment with ID=9",
    );
    expect((await h.admin.get("/api/server_templates/9/inputs")).text).toBe(
      "ResourceNotFound: Couldn't find ServerTemplate with ID=9",
    );
    expect((await h.admin.get("/api/clouds/2/instances/1/inputs")).text).toBe(
      "ResourceNotFound: Couldn't find Instance with ID=1",
    );
  });
});

describe("inputs multi_update", () => {
  it.each(PREFIXES)(
    "%s: 2.0 hash notation updates existing names and ignores unknown ones",
    async (prefix) => {
      const before = await inputs(prefix, "inputs_2_0");
      const name = before[0]!.name;
      const res = await h.admin.put(`${prefix}/multi_update`, {
        form: { inputs: { [name]: "cred:SECRET", NOT_THERE: "text:x" } },
      });
      expect([res.status, res.text]).toEqual([204, ""]);
      const after = await inputs(prefix, "inputs_2_0");
      expect(after.find((i) => i.name === name)!.value).toBe("cred:SECRET");
      expect(after.map((i) => i.name)).toEqual(before.map((i) => i.name));
    },
  );

  it("1.0 legacy pairs: unprefixed is text, empty string inherits", async () => {
    const res = await h.admin.put("/api/deployments/1/inputs/multi_update", {
      form: "inputs[][name]=APP_ENV&inputs[][value]=staging&inputs[][name]=DB_PASSWORD&inputs[][value]=&inputs[][name]=HOSTS&inputs[][value]=array:x,y",
    });
    expect(res.status).toBe(204);
    const v2 = await inputs("/api/deployments/1/inputs", "inputs_2_0");
    expect(v2).toContainEqual({ name: "APP_ENV", value: "text:staging" });
    expect(v2).toContainEqual({ name: "DB_PASSWORD", value: "ignore" });
    expect(v2).toContainEqual({ name: "HOSTS", value: 'array:["text:x","text:y"]' });
  });

  it("JSON bodies in both notations, and parameters in the PUT's query string", async () => {
    expect(
      (
        await h.admin.put("/api/deployments/1/inputs/multi_update", {
          json: { inputs: [{ name: "APP_ENV", value: "text:a" }] },
        })
      ).status,
    ).toBe(204);
    expect((await inputs("/api/deployments/1/inputs"))[0]).toEqual({ name: "APP_ENV", value: "text:a" });
    expect(
      (
        await h.admin.put("/api/deployments/1/inputs/multi_update", {
          json: { inputs: { APP_ENV: "env:web:PORT" } },
        })
      ).status,
    ).toBe(204);
    expect((await inputs("/api/deployments/1/inputs"))[0]).toEqual({
      name: "APP_ENV",
      value: "env:web:PORT",
    });
    expect(
      (
        await h.admin.put("/api/deployments/1/inputs/multi_update", {
          query: { inputs: { LOG_LEVEL: "text:debug" } },
        })
      ).status,
    ).toBe(204);
    expect(await inputs("/api/deployments/1/inputs")).toContainEqual({
      name: "LOG_LEVEL",
      value: "text:debug",
    });
    expect(
      (
        await h.admin.put("/api/deployments/1/inputs/multi_update", {
          json: { inputs: { LOG_LEVEL: "inherit" } },
        })
      ).status,
    ).toBe(204);
    expect(await inputs("/api/deployments/1/inputs", "inputs_2_0")).toContainEqual({
      name: "LOG_LEVEL",
      value: "ignore",
    });
  });

  const bad: Array<[string, unknown]> = [
    ["no inputs", {}],
    ["2.0 unprefixed value", { inputs: { APP_ENV: "production" } }],
    ["2.0 empty string", { inputs: { APP_ENV: "" } }],
    ["2.0 array not JSON", { inputs: { HOSTS: "array:a,b" } }],
    ["unknown type", { inputs: { APP_ENV: "bogus:x" } }],
    ["1.0 pair without name", { inputs: [{ value: "text:x" }] }],
    ["1.0 array with a typed element", { inputs: [{ name: "HOSTS", value: "array:cred:x" }] }],
    ["value not a string", { inputs: { APP_ENV: 5 } }],
    ["inputs a string", { inputs: "APP_ENV=text:x" }],
  ];
  it.each(bad)("refuses %s with 400 and changes nothing", async (_reason, json) => {
    const res = await h.expectUnchanged(() =>
      h.admin.put("/api/deployments/1/inputs/multi_update", { json }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^ParameterError: (inputs|input \w+): /);
  });

  it("a valid update naming a bad second value changes nothing", async () => {
    const res = await h.expectUnchanged(() =>
      h.admin.put("/api/deployments/1/inputs/multi_update", {
        json: { inputs: { APP_ENV: "text:ok", LOG_LEVEL: "nope" } },
      }),
    );
    expect(res.status).toBe(400);
  });

  it("roles: observer reads, actor updates", async () => {
    expect((await h.user2.get("/api/deployments/1/inputs")).status).toBe(403);
    const res = await h.user2.put("/api/deployments/1/inputs/multi_update", {
      json: { inputs: { APP_ENV: "text:x" } },
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain("actor");
  });
});
