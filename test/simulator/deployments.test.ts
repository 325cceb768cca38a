import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

interface DeploymentRep {
  name: string;
  description: string | null;
  locked: boolean;
  server_tag_scope: string;
  links: Array<{ rel: string; href: string }>;
  actions: Array<{ rel: string }>;
  inputs?: Array<{ name: string; value: string }>;
}

describe("deployments", () => {
  it("index answers the collection with the collection media type", async () => {
    const res = await h.admin.get("/api/deployments");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.svc.deployment+json;type=collection;charset=utf-8",
    );
    const list = res.json<DeploymentRep[]>();
    expect(list.map((d) => d.name)).toEqual(["Production", "Staging"]);
    expect(list[0]!.links.map((l) => l.rel)).toEqual([
      "self",
      "inputs",
      "servers",
      "server_arrays",
      "alerts",
    ]);
    expect(list[0]).not.toHaveProperty("inputs");
  });

  it("show answers one object, with .json and .xml suffixes", async () => {
    const json = await h.admin.get("/api/deployments/1.json");
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/vnd.svc.deployment+json;charset=utf-8");
    expect(json.json<DeploymentRep>().name).toBe("Production");
    const xml = await h.admin.get("/api/deployments/2.xml");
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.deployment+xml;charset=utf-8");
    expect(xml.text).toContain("<deployment><name>Staging</name><description/><locked>true</locked>");
    expect(xml.text).toContain('<actions><action rel="clone"/><action rel="unlock"/></actions>');
  });

  it("creates with 201 and a relative Location, form or JSON", async () => {
    const form = await h.admin.post("/api/deployments", {
      form: { deployment: { name: "web", description: "Web tier", server_tag_scope: "account" } },
    });
    expect(form.status).toBe(201);
    expect(form.headers.get("location")).toBe("/api/deployments/3");
    const json = await h.admin.post("/api/deployments", { json: { deployment: { name: "db" } } });
    expect(json.status).toBe(201);
    const shown = await h.admin.get("/api/deployments/3");
    expect(shown.json<DeploymentRep>()).toMatchObject({
      name: "web",
      description: "Web tier",
      server_tag_scope: "account",
      locked: false,
    });
  });

  it("refuses a duplicate name with the JSON array of pairs", async () => {
    const res = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments", { form: { deployment: { name: "Production" } } }),
    );
    expect(res.status).toBe(422);
    expect(res.json()).toEqual([
      ["name", "A deployment with this name already exists. Please enter a different name."],
    ]);
  });
});
