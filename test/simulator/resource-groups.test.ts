import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

const RG = "/api/resource_groups";
const GROUP = { cloud_href: "/api/clouds/1", name: "web-rg" };

describe("resource groups", () => {
  it("creates with 201 + Location and renders the documented fields", async () => {
    const res = await h.admin.post(RG, {
      form: { resource_group: { ...GROUP, description: "", deployment_href: "/api/deployments/1" } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${RG}/1`);
    expect(await show(h, `${RG}/1`)).toEqual({
      name: "web-rg",
      description: "",
      state: "available",
      resource_uid: "rg-00000001",
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      links: [
        { rel: "self", href: `${RG}/1` },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "deployment", href: "/api/deployments/1" },
      ],
      actions: [],
    });
    const xml = await h.admin.get(`${RG}.xml`);
    expect(xml.text).toContain("<resource_groups><resource_group><name>web-rg</name><description/>");
  });

  it("updates deployment (blank clears) and description", async () => {
    await create(h, RG, { resource_group: { ...GROUP, deployment_href: "/api/deployments/1" } });
    expect(
      (await h.admin.put(`${RG}/1`, { json: { resource_group: { deployment_href: "", description: "d" } } }))
        .status,
    ).toBe(204);
    const group = await show(h, `${RG}/1`);
    expect(rel(group, "deployment")).toBeUndefined();
    expect(group.description).toBe("d");
  });

  it("filters by cloud_href, name (partial) and state (documented values only)", async () => {
    await create(h, RG, { resource_group: { ...GROUP, name: "Alpha" } });
    await create(h, RG, { resource_group: { cloud_href: "/api/clouds/2", name: "beta" } });
    const names = async (...f: string[]) => (await index(h, RG, f)).map((g) => g.name);
    expect(await names("name==alp")).toEqual(["Alpha"]);
    expect(await names("cloud_href==/api/clouds/2")).toEqual(["beta"]);
    expect(await names("state==available")).toEqual(["Alpha", "beta"]);
    expect(await names("state==unavalable")).toEqual([]);
    const bad = await h.admin.get(RG, { query: { filter: ["state==unavailable"] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("filter[] state must be one of available, unavalable");
  });

  it("destroys, but not while a deployment names the group", async () => {
    await create(h, RG, { resource_group: GROUP });
    await create(h, "/api/deployments", { deployment: { name: "grouped", resource_group_href: `${RG}/1` } });
    await expectRefused(h, () => h.admin.delete(`${RG}/1`), 422, "Resource group 1 is used by deployments 3");
    expect((await h.admin.delete("/api/deployments/3")).status).toBe(204);
    expect((await h.admin.delete(`${RG}/1`)).status).toBe(204);
    await expectRefused(h, () => h.admin.get(`${RG}/1`), 422, "Couldn't find ResourceGroup with ID=1");
  });

  it("roles: observer reads, actor writes", async () => {
    await expectRefused(h, () => h.user2.get(RG), 403, "observer");
    await expectRefused(h, () => h.user2.post(RG, { json: { resource_group: GROUP } }), 403, "actor");
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "resource_group is required" },
    {
      reason: "no cloud",
      body: { resource_group: { name: "x" } },
      status: 400,
      message: "resource_group[cloud_href] is required",
    },
    {
      reason: "no name",
      body: { resource_group: { cloud_href: "/api/clouds/1" } },
      status: 400,
      message: "resource_group[name] is required",
    },
    {
      reason: "blank name",
      body: { resource_group: { ...GROUP, name: "" } },
      status: 400,
      message: "resource_group[name] must not be blank",
    },
    {
      reason: "unknown cloud",
      body: { resource_group: { ...GROUP, cloud_href: "/api/clouds/9" } },
      status: 422,
      message: "Couldn't find Cloud with ID=9",
    },
    {
      reason: "unknown deployment",
      body: { resource_group: { ...GROUP, deployment_href: "/api/deployments/9" } },
      status: 422,
      message: "Couldn't find Deployment with ID=9",
    },
    {
      reason: "unknown member",
      body: { resource_group: { ...GROUP, state: "available" } },
      status: 400,
      message: "resource_group[state] is not allowed",
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", RG, row);
  });

  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, RG, { resource_group: GROUP });
    });
    const updateCases: BadInput[] = [
      { reason: "no wrapper", body: {}, status: 400, message: "resource_group is required" },
      {
        reason: "name is create-only",
        body: { resource_group: { name: "x" } },
        status: 400,
        message: "resource_group[name] is not allowed",
      },
      {
        reason: "unknown deployment",
        body: { resource_group: { deployment_href: "/api/deployments/9" } },
        status: 422,
        message: "Couldn't find Deployment with ID=9",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", `${RG}/1`, row);
    });
    it("refuses unknown ids", async () => {
      await expectRefused(
        h,
        () => h.admin.put(`${RG}/5`, { json: { resource_group: { description: "x" } } }),
        422,
        "Couldn't find ResourceGroup with ID=5",
      );
      await expectRefused(h, () => h.admin.delete(`${RG}/5`), 422, "Couldn't find ResourceGroup with ID=5");
    });
  });
});
