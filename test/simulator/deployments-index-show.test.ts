import { describe, expect, it } from "vitest";
import { type DeploymentRep, names } from "./deployments-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";

const h = await startFileSimulator({ resetEach: true });

describe("deployments: index and show", () => {
  it("index answers the collection with the collection media type", async () => {
    const res = await h.admin.get("/api/deployments");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.svc.deployment+json;type=collection;charset=utf-8",
    );
    const list = res.json<DeploymentRep[]>();
    expect(names(list)).toEqual(["Production", "Staging"]);
    // The reference's order: inputs (and lock_user, when locked) before self.
    expect(list[0]!.links.map((l) => l.rel)).toEqual([
      "inputs",
      "self",
      "servers",
      "server_arrays",
      "alerts",
    ]);
    expect(list[0]!.links[1]).toEqual({ rel: "self", href: "/api/deployments/1" });
    expect(list[0]).not.toHaveProperty("inputs");
  });

  it("show answers one object, also with .json and .xml suffixes", async () => {
    for (const path of ["/api/deployments/1", "/api/deployments/1.json"]) {
      const res = await h.admin.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/vnd.svc.deployment+json;charset=utf-8");
      expect(res.json<DeploymentRep>()).toMatchObject({
        name: "Production",
        locked: false,
        server_tag_scope: "deployment",
        actions: [{ rel: "clone" }, { rel: "lock" }],
      });
    }
    const xml = await h.admin.get("/api/deployments/2.xml");
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.deployment+xml;charset=utf-8");
    expect(xml.text).toContain("<deployment><name>Staging</name><description/><locked>true</locked>");
    expect(xml.text).toContain('<link rel="self" href="/api/deployments/2"/>');
    expect(xml.text).toContain('<actions><action rel="clone"/><action rel="unlock"/></actions>');
  });

  it("index in XML has the plural root, also through Accept", async () => {
    for (const res of [
      await h.admin.get("/api/deployments.xml"),
      await h.admin.get("/api/deployments", { headers: { accept: "application/xml" } }),
    ]) {
      expect(res.headers.get("content-type")).toBe(
        "application/vnd.svc.deployment+xml;type=collection;charset=utf-8",
      );
      expect(res.text).toMatch(/^<\?xml[^>]*>\s*<deployments><deployment><name>Production<\/name>/);
      expect(res.text.match(/<deployment>/g)).toHaveLength(2);
    }
  });

  it("views: inputs shows unset as text:, inputs_2_0 as blank", async () => {
    const v1 = (await h.admin.get("/api/deployments/1", { query: { view: "inputs" } })).json<DeploymentRep>();
    expect(v1.inputs).toEqual([
      { name: "APP_ENV", value: "text:production" },
      { name: "DB_PASSWORD", value: "cred:DB_PASSWORD" },
      { name: "LOG_LEVEL", value: "text:" },
      { name: "FEATURE_FLAGS", value: "ignore:$ignore" },
      { name: "HOSTS", value: "array:a.example.com,b.example.com" },
    ]);
    const v2 = (
      await h.admin.get("/api/deployments/1", { query: { view: "inputs_2_0" } })
    ).json<DeploymentRep>();
    expect(v2.inputs).toContainEqual({ name: "LOG_LEVEL", value: "blank" });
    expect(v2.inputs).toContainEqual({ name: "FEATURE_FLAGS", value: "ignore" });
    expect(v2.inputs).toContainEqual({
      name: "HOSTS",
      value: 'array:["text:a.example.com","text:b.example.com"]',
    });
    const index = (await h.admin.get("/api/deployments", { query: { view: "inputs_2_0" } })).json<
      DeploymentRep[]
    >();
    expect(index[1]!.inputs).toEqual([]);
    const xml = await h.admin.get("/api/deployments/1.xml", { query: { view: "inputs" } });
    expect(xml.text).toContain("<inputs><input><name>APP_ENV</name><value>text:production</value></input>");
  });

  it("filters: partial case-insensitive, exact, <> and AND", async () => {
    await h.admin.post("/api/deployments", {
      form: { deployment: { name: "Web Tier", description: "front end" } },
    });
    const get = async (...filters: string[]) =>
      names((await h.admin.get("/api/deployments", { query: { filter: filters } })).json<DeploymentRep[]>());
    expect(await get("name==prod")).toEqual(["Production"]);
    expect(await get("name==web tier")).toEqual(["Web Tier"]);
    expect(await get("name<>prod")).toEqual(["Staging", "Web Tier"]);
    expect(await get("server_tag_scope==acc")).toEqual(["Staging"]);
    expect(await get("description==FRONT", "name==web")).toEqual(["Web Tier"]);
    expect(await get("description==FRONT", "name==prod")).toEqual([]);
    expect(await get("resource_group_href==/api/resource_groups/1")).toEqual([]);
    // raw form: spaces in values, repeated filter[]
    const raw = await h.admin.get("/api/deployments", {
      query: "filter[]=name==Web%20Tier&filter[]=name<>Prod",
    });
    expect(names(raw.json())).toEqual(["Web Tier"]);
  });

  it("refuses an unknown filter, a malformed one and a bad view with 400", async () => {
    const unknown = await h.admin.get("/api/deployments", { query: { filter: ["locked==true"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toBe(
      "ParameterError: filter[] 'locked' is not a filter of this index (allowed: description, name, resource_group_href, server_tag_scope)",
    );
    const malformed = await h.admin.get("/api/deployments", { query: { filter: ["name=x"] } });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain("filter[] 'name=x' must be <field>==<value> or <field><><value>");
    const view = await h.admin.get("/api/deployments/1", { query: { view: "extended" } });
    expect(view.status).toBe(400);
    expect(view.text).toBe(
      "ParameterError: view must be one of default, inputs, inputs_2_0 (got 'extended')",
    );
    const blank = await h.admin.get("/api/deployments", { query: { view: "" } });
    expect(blank.text).toBe("ParameterError: view must not be blank");
  });

  it("an unknown id is 422 ResourceNotFound", async () => {
    const res = await h.admin.get("/api/deployments/999");
    expect(res.status).toBe(422);
    expect(res.text).toBe("ResourceNotFound: Couldn't find Deployment with ID=999");
  });
});
