import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { isUploadedFile } from "../../src/simulator/params.ts";
import { defineResource } from "../../src/simulator/resource.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { access } from "../../src/simulator/roles.ts";
import { startSimulator } from "./harness.ts";

// A test-only resource that answers the params it received, to check parsing end to end.
const echo = defineResource({
  name: "echo",
  collections: {},
  register(sim) {
    for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
      sim.route({
        method,
        path: "/api/echo/:id",
        access: access.public,
        handler(ctx) {
          const params = JSON.parse(
            JSON.stringify(ctx.params, (_k, v) =>
              isUploadedFile(v)
                ? { filename: v.filename, size: v.size, content: v.content.toString("utf8") }
                : v,
            ),
          );
          return ctx.one("echo", { id: ctx.param("id"), format: ctx.format, params });
        },
      });
    }
  },
});

/** fetch refuses a GET with a body; node:http does not. */
function getWithBody(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
    const req = request(url, { method: "GET", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve(text));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const crash = defineResource({
  name: "crash",
  collections: {},
  register(sim) {
    sim.route({
      method: "GET",
      path: "/api/crash",
      access: access.public,
      handler() {
        throw new Error("boom");
      },
    });
  },
});

const h = await startSimulator({ resources: [...resources, echo, crash] });
afterAll(() => h.close());
const anon = h.anonymous;

interface Echo {
  id: string;
  format: string;
  params: Record<string, unknown>;
}

describe("routing", () => {
  it("404 for an unknown route, 405 with Allow for a wrong method, 406 for an unknown format", async () => {
    const missing = await h.admin.get("/api/nothing_here");
    expect([missing.status, missing.text]).toEqual([
      404,
      "RouteNotFound: no route matches GET /api/nothing_here",
    ]);
    const wrong = await h.admin.request("PATCH", "/api/deployments/1");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PUT, DELETE");
    const yaml = await h.admin.get("/api/deployments/1.yaml");
    expect(yaml.status).toBe(406);
    expect(yaml.text).toBe("NotAcceptable: unknown format '.yaml' (use .json or .xml)");
    const accept = await h.admin.get("/api/deployments/1", { headers: { accept: "application/pdf" } });
    expect(accept.status).toBe(406);
  });

  it("path params are decoded; suffix and trailing slash are optional", async () => {
    const plain = (await anon.get("/api/echo/a%20b")).json<Echo>();
    expect(plain).toMatchObject({ id: "a b", format: "json" });
    expect((await anon.get("/api/echo/7.json")).json<Echo>()).toMatchObject({ id: "7", format: "json" });
    const xml = await anon.get("/api/echo/7.xml");
    expect(xml.text).toContain("<echo><id>7</id><format>xml</format>");
    expect((await anon.get("/api/echo/7/")).status).toBe(200);
  });
});

describe("parameters", () => {
  it("parses bracket notation with Rails semantics for arrays of hashes", async () => {
    const res = await anon.post("/api/echo/1", {
      form: "inputs[][name]=A&inputs[][value]=text:1&inputs[][name]=B&inputs[][value]=text:2&filter[]=name==x&filter[]=name<>y&route[cloud_specific_attributes][instance_tags][]=t1&route[cloud_specific_attributes][instance_tags][]=t2",
    });
    expect(res.json<Echo>().params).toEqual({
      inputs: [
        { name: "A", value: "text:1" },
        { name: "B", value: "text:2" },
      ],
      filter: ["name==x", "name<>y"],
      route: { cloud_specific_attributes: { instance_tags: ["t1", "t2"] } },
    });
  });

  it("merges query-string and body parameters (body wins, hashes merge)", async () => {
    const res = await anon.put("/api/echo/1", {
      query: { deployment: { name: "q", description: "from query" }, view: "default" },
      form: { deployment: { name: "b" } },
    });
    expect(res.json<Echo>().params).toEqual({
      deployment: { name: "b", description: "from query" },
      view: "default",
    });
    // a GET with a body (official examples do this)
    const get = await getWithBody(`${h.url}/api/echo/1?view=default`, JSON.stringify({ limit: "5" }));
    expect(JSON.parse(get).params).toEqual({ limit: "5", view: "default" });
  });

  it("reads JSON bodies with the same nesting and tolerates JSON content type without a body", async () => {
    const res = await anon.post("/api/echo/1", {
      json: { inputs: { FOO: "text:x" }, deployment: { name: "n" } },
    });
    expect(res.json<Echo>().params).toEqual({ inputs: { FOO: "text:x" }, deployment: { name: "n" } });
    for (const method of ["GET", "DELETE"]) {
      const bare = await anon.request(method, "/api/echo/1", {
        headers: { "content-type": "application/json" },
      });
      expect(bare.status).toBe(200);
      expect(bare.json<Echo>().params).toEqual({});
    }
    const bad = await anon.post("/api/echo/1", {
      form: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^ParameterError: request body is not valid JSON/);
  });

  it("reads multipart bodies with bracketed names and file parts", async () => {
    const form = new FormData();
    form.append("stored_script_attachment[filename]", "notes.txt");
    form.append("stored_script_attachment[content]", new Blob(["hello world"]), "notes.txt");
    const res = await anon.post("/api/echo/1", { multipart: form });
    expect(res.json<Echo>().params).toEqual({
      stored_script_attachment: {
        filename: "notes.txt",
        content: { filename: "notes.txt", size: 11, content: "hello world" },
      },
    });
  });
});

describe("version header", () => {
  it("is read case-insensitively and as X_API_VERSION; an invalid value is 422", async () => {
    for (const name of ["X-API-Version", "X-API-VERSION", "x-api-version", "X_API_VERSION"]) {
      const res = await h.admin.get("/api/deployments/1", {
        headers: { "x-api-version": "", [name]: "1.5" },
      });
      expect(res.status, name).toBe(200);
    }
    const bad = await h.admin.get("/api/deployments/1", { headers: { "x-api-version": "2.0" } });
    expect([bad.status, bad.text]).toEqual([
      422,
      "UnsupportedVersion: X-API-Version '2.0' is not supported (use 1.5)",
    ]);
    const underscored = await h.admin.get("/api/deployments/1", {
      headers: { "x-api-version": "", X_API_VERSION: "abc" },
    });
    expect(underscored.status).toBe(422);
  });

  it("is optional outside session and oauth2", async () => {
    const res = await h.admin.get("/api/deployments/1", { headers: { "x-api-version": "" } });
    expect(res.status).toBe(200);
  });
});

describe("the default seed", () => {
  it("is deterministic: two simulators hold the same state", async () => {
    const other = await startSimulator();
    try {
      expect(await other.state()).toEqual(await h.state());
    } finally {
      await other.close();
    }
  });

  it("holds the linked objects the other resources need", async () => {
    const state = await h.hooks.get("/__sim/state");
    const s = state.json<Record<string, unknown[]>>();
    for (const name of [
      "accounts",
      "users",
      "permissions",
      "deployments",
      "clouds",
      "datacenters",
      "instance_types",
      "volume_types",
      "images",
      "server_templates",
      "servers",
      "server_arrays",
      "instances",
      "volume_snapshots",
      "stored_scripts",
    ]) {
      expect(s[name]?.length ?? 0, name).toBeGreaterThan(0);
    }
  });
});

describe("robustness", () => {
  it("a handler bug is a 500 and the server keeps serving", async () => {
    const res = await anon.get("/api/crash");
    expect([res.status, res.text]).toEqual([500, "InternalServerError: the simulator failed; see its log"]);
    expect((await h.admin.get("/api/deployments/1")).status).toBe(200);
  });

  it("hostile input is refused cleanly", async () => {
    expect((await h.admin.get("/api/deployments/%E0%A4%A")).status).toBe(404);
    expect((await anon.get("/api/echo/1", { query: "a=%E0%A4%A&b[c][d][e]=1" })).status).toBe(200);
    const proto = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments", {
        form: '{"deployment":{"name":"x","__proto__":{"locked":true}}}',
        headers: { "content-type": "application/json" },
      }),
    );
    expect([proto.status, proto.text]).toEqual([400, "ParameterError: deployment[__proto__] is not allowed"]);
    const notObject = await anon.post("/api/echo/1", {
      form: "[1,2]",
      headers: { "content-type": "application/json" },
    });
    expect([notObject.status, notObject.text]).toEqual([
      400,
      "ParameterError: request body must be a JSON object",
    ]);
    const deep = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments", { form: `deployment${"[a]".repeat(50)}=1` }),
    );
    expect(deep.status).toBe(400);
  });
});
