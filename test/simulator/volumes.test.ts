import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { resources } from "../../src/simulator/resources/index.ts";
import { defaultSeed, validateSeed } from "../../src/simulator/seed.ts";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

const VOLUME = { name: "data", datacenter_href: "/api/clouds/1/datacenters/1" };
const V = "/api/clouds/1/volumes";

describe("volumes", () => {
  it("creates with a digits size, answers 201 + Location, size is an integer", async () => {
    const res = await h.admin.post(V, {
      form: {
        volume: {
          ...VOLUME,
          size: "100",
          description: "",
          deployment_href: "/api/deployments/1",
          volume_type_href: "/api/clouds/1/volume_types/2",
          encrypted: "true",
          iops: "3000",
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe("/api/clouds/1/volumes/2");
    const volume = await show(h, "/api/clouds/1/volumes/2");
    expect(volume).toEqual({
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      name: "data",
      resource_uid: "vol-00000002",
      size: 100,
      description: "",
      status: "available",
      iops: 3000,
      cloud_specific_attributes: { encrypted: true, iops: 3000 },
      links: [
        { rel: "self", href: "/api/clouds/1/volumes/2" },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "datacenter", href: "/api/clouds/1/datacenters/1" },
        { rel: "deployment", href: "/api/deployments/1" },
        { rel: "volume_type", href: "/api/clouds/1/volume_types/2" },
        { rel: "volume_snapshots", href: "/api/clouds/1/volumes/2/volume_snapshots" },
        { rel: "recurring_volume_attachments", href: "/api/clouds/1/volumes/2/recurring_volume_attachments" },
      ],
      actions: [],
      // The volume type embedded, as the real media type's `volume_type` attribute.
      volume_type: (await show(h, "/api/clouds/1/volume_types/2")) as unknown,
      placement_group: null,
    });
    const extended = await h.admin.get("/api/clouds/1/volumes/2", { query: { view: "extended" } });
    expect(extended.json()).toEqual(volume);
    expect((await h.admin.get("/api/clouds/1/volumes/2", { query: { view: "full" } })).status).toBe(400);
  });

  it("takes the size from the snapshot, the volume type, or 1 GB", async () => {
    await create(h, V, {
      volume: { ...VOLUME, parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/2" },
    });
    await create(h, V, { volume: { ...VOLUME, volume_type_href: "/api/clouds/1/volume_types/2" } });
    await create(h, V, { volume: VOLUME });
    await create(h, V, { volume: { ...VOLUME, size: 20 } });
    const sizes = (await index(h, V)).map((v) => v.size);
    expect(sizes).toEqual([10, 50, 4, 1, 20]);
    const snap = await show(h, "/api/clouds/1/volumes/2");
    expect(rel(snap, "parent_volume_snapshot")).toBe("/api/clouds/1/volume_snapshots/2");
  });

  it("the open-source stack cloud needs no datacenter", async () => {
    expect(await create(h, "/api/clouds/2/volumes", { volume: { name: "lab" } })).toBe(
      "/api/clouds/2/volumes/2",
    );
  });

  it("shows the seeded in-use volume with its current attachment", async () => {
    const volume = await show(h, "/api/clouds/1/volumes/1");
    expect(volume.status).toBe("in-use");
    expect(rel(volume, "current_volume_attachment")).toBeDefined();
    await expectRefused(h, () => h.admin.delete("/api/clouds/1/volumes/1"), 422, "Volume 1 is in use");
  });

  it("adds and removes allowed instances", async () => {
    await create(h, V, { volume: VOLUME });
    const add = await h.admin.put(`${V}/2`, {
      form: {
        volume: {
          allowed_instance_hrefs: { add: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"] },
        },
      },
    });
    expect(add.status, add.text).toBe(204);
    expect((await show(h, `${V}/2`)).cloud_specific_attributes).toEqual({
      allowed_instance_hrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"],
    });
    const xml = await h.admin.get(`${V}/2.xml`);
    expect(xml.text).toContain(
      "<cloud_specific_attributes><allowed_instance_hrefs><allowed_instance_href>/api/clouds/1/instances/1</allowed_instance_href>",
    );
    const both = await h.admin.put(`${V}/2`, {
      json: {
        volume: {
          name: "renamed",
          allowed_instance_hrefs: {
            add: ["/api/clouds/1/instances/5", "/api/clouds/1/instances/1"],
            remove: ["/api/clouds/1/instances/2"],
          },
        },
      },
    });
    expect(both.status).toBe(204);
    const volume = await show(h, `${V}/2`);
    expect(volume.name).toBe("renamed");
    expect(volume.cloud_specific_attributes).toEqual({
      allowed_instance_hrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/5"],
    });
    await h.admin.put(`${V}/2`, {
      json: {
        volume: {
          allowed_instance_hrefs: { remove: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/5"] },
        },
      },
    });
    expect((await show(h, `${V}/2`)).cloud_specific_attributes).toBeNull();
  });

  it("filters exactly or partially as the spec lists", async () => {
    await create(h, V, {
      volume: {
        ...VOLUME,
        name: "Web Data",
        description: "Logs and such",
        deployment_href: "/api/deployments/2",
      },
    });
    await create(h, V, {
      volume: {
        ...VOLUME,
        name: "db",
        datacenter_href: "/api/clouds/1/datacenters/2",
        parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/1",
      },
    });
    const names = async (...f: string[]) => (await index(h, V, f)).map((v) => v.name);
    expect(await names("name==web")).toEqual(["Web Data"]);
    expect(await names("description==LOGS")).toEqual(["Web Data"]);
    expect(await names("datacenter_href==/api/clouds/1/datacenters/2")).toEqual(["db"]);
    expect(await names("deployment_href==/api/deployments/2")).toEqual(["Web Data"]);
    expect(await names("parent_volume_snapshot_href==/api/clouds/1/volume_snapshots/1")).toEqual(["db"]);
    expect(await names("resource_uid==vol-00000003")).toEqual(["db"]);
    expect(await names("name<>a")).toEqual(["db"]);
    expect((await h.admin.get(V, { query: { filter: ["status==available"] } })).status).toBe(400);
    expect((await index(h, "/api/clouds/2/volumes")).length).toBe(0);
  });

  it("answers XML with an integer size and empty elements for nulls", async () => {
    await create(h, V, { volume: { ...VOLUME, size: "5" } });
    const xml = await h.admin.get(`${V}/2.xml`);
    expect(xml.headers.get("content-type")).toBe("application/vnd.svc.volume+xml;charset=utf-8");
    expect(xml.text).toContain("<size>5</size><description/><status>available</status><iops/>");
    expect(xml.text).toContain("<volume_type/><placement_group/><cloud_specific_attributes/></volume>");
  });

  it("destroys; refuses while recurring attachments reference the volume", async () => {
    await create(h, V, { volume: VOLUME });
    await create(h, "/api/clouds/1/recurring_volume_attachments", {
      recurring_volume_attachment: {
        device: "/dev/xvdb",
        runnable_href: "/api/servers/1",
        storage_href: `${V}/2`,
      },
    });
    await expectRefused(
      h,
      () => h.admin.delete(`${V}/2`),
      422,
      "ActionNotAllowed: Volume 2 still has recurring volume attachments 1",
    );
    expect((await h.admin.delete("/api/clouds/1/recurring_volume_attachments/1")).status).toBe(204);
    expect((await h.admin.delete(`${V}/2`)).status).toBe(204);
    await expectRefused(h, () => h.admin.get(`${V}/2`), 422, "Couldn't find Volume with ID=2");
  });

  it("refuses to destroy a volume while snapshots taken of it remain", async () => {
    const seed = defaultSeed(resources);
    seed.volumes!.push({
      ...seed.volumes![0]!,
      id: "2",
      status: "available",
      current_instance_href: null,
    } as never);
    for (const snapshot of seed.volume_snapshots! as unknown as Array<Record<string, unknown>>)
      if (snapshot.id === "2") snapshot.parent_volume_id = "2";
    const other = await startSimulator({ seed: validateSeed(seed, resources) });
    try {
      await expectRefused(
        other,
        () => other.admin.delete(`${V}/2`),
        422,
        "ActionNotAllowed: Volume 2 still has dependent volume snapshots 2: delete them first",
      );
      // a volume no snapshot depends on is destroyed
      const spare = await create(other, V, { volume: VOLUME });
      expect((await other.admin.delete(spare)).status).toBe(204);
    } finally {
      await other.close();
    }
  });

  it("roles: observer or instance reads, actor or instance writes", async () => {
    await expectRefused(h, () => h.user2.get(V), 403, "observer or instance");
    await expectRefused(h, () => h.user2.post(V, { json: { volume: VOLUME } }), 403, "actor or instance");
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "volume is required" },
    {
      reason: "no name",
      body: { volume: { datacenter_href: "/api/clouds/1/datacenters/1" } },
      status: 400,
      message: "volume[name] is required",
    },
    {
      reason: "blank name",
      body: { volume: { ...VOLUME, name: "" } },
      status: 400,
      message: "volume[name] must not be blank",
    },
    {
      reason: "size with a unit",
      body: { volume: { ...VOLUME, size: "10GB" } },
      status: 400,
      message: "volume[size] must be digits only",
    },
    {
      reason: "negative size",
      body: { volume: { ...VOLUME, size: "-1" } },
      status: 400,
      message: "volume[size] must be digits only",
    },
    {
      reason: "decimal size",
      body: { volume: { ...VOLUME, size: 1.5 } },
      status: 400,
      message: "volume[size] must be digits only",
    },
    {
      reason: "iops not digits",
      body: { volume: { ...VOLUME, iops: "fast" } },
      status: 400,
      message: "volume[iops] must be digits only",
    },
    {
      reason: "encrypted value",
      body: { volume: { ...VOLUME, encrypted: "yes" } },
      status: 400,
      message: "volume[encrypted] must be one of true, false",
    },
    {
      reason: "placement group with snapshot",
      body: {
        volume: {
          ...VOLUME,
          placement_group_href: "/api/placement_groups/1",
          parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/1",
        },
      },
      status: 400,
      message: "volume[placement_group_href] cannot be combined with volume[parent_volume_snapshot_href]",
    },
    {
      reason: "no datacenter on the public cloud",
      body: { volume: { name: "x" } },
      status: 400,
      message: "volume[datacenter_href] is required on this cloud",
    },
    {
      reason: "unknown datacenter",
      body: { volume: { ...VOLUME, datacenter_href: "/api/clouds/1/datacenters/9" } },
      status: 422,
      message: "Couldn't find Datacenter with ID=9",
    },
    {
      reason: "datacenter of another cloud",
      body: { volume: { ...VOLUME, datacenter_href: "/api/clouds/2/datacenters/3" } },
      status: 422,
      message: "is not in cloud 1",
    },
    {
      reason: "malformed datacenter",
      body: { volume: { ...VOLUME, datacenter_href: "/api/datacenters/1" } },
      status: 400,
      message: "volume[datacenter_href] must be a datacenter href",
    },
    {
      reason: "unknown volume type",
      body: { volume: { ...VOLUME, volume_type_href: "/api/clouds/1/volume_types/9" } },
      status: 422,
      message: "Couldn't find VolumeType with ID=9",
    },
    {
      reason: "volume type of another cloud",
      body: { volume: { ...VOLUME, volume_type_href: "/api/clouds/2/volume_types/3" } },
      status: 422,
      message: "is not in cloud 1",
    },
    {
      reason: "unknown snapshot",
      body: { volume: { ...VOLUME, parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/9" } },
      status: 422,
      message: "Couldn't find VolumeSnapshot with ID=9",
    },
    {
      reason: "smaller than the snapshot",
      body: {
        volume: { ...VOLUME, size: "5", parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/2" },
      },
      status: 422,
      message: "volume[size] 5 is smaller than the 50 GB of snapshot 2",
    },
    {
      reason: "unknown image",
      body: { volume: { ...VOLUME, image_href: "/api/clouds/1/images/9" } },
      status: 422,
      message: "Couldn't find Image with ID=9",
    },
    {
      reason: "unknown deployment",
      body: { volume: { ...VOLUME, deployment_href: "/api/deployments/9" } },
      status: 422,
      message: "Couldn't find Deployment with ID=9",
    },
    {
      reason: "allowed instances are update-only",
      body: { volume: { ...VOLUME, allowed_instance_hrefs: { add: [] } } },
      status: 400,
      message: "volume[allowed_instance_hrefs] is not allowed",
    },
    {
      reason: "form: size with a unit",
      body: { volume: { ...VOLUME, size: "1 GB" } },
      status: 400,
      message: "volume[size]",
      form: true,
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", V, row);
  });

  it("create refuses encryption and iops on a cloud without them, and unknown clouds", async () => {
    await refuse(h, "POST", "/api/clouds/2/volumes", {
      reason: "encryption",
      body: { volume: { name: "x", encrypted: "true" } },
      status: 400,
      message: "volume[encrypted] is not allowed: the cloud does not support encryption",
    });
    await refuse(h, "POST", "/api/clouds/2/volumes", {
      reason: "iops",
      body: { volume: { name: "x", iops: "100" } },
      status: 400,
      message: "volume[iops] is not allowed",
    });
    await refuse(h, "POST", "/api/clouds/8/volumes", {
      reason: "cloud",
      body: { volume: VOLUME },
      status: 422,
      message: "Couldn't find Cloud with ID=8",
    });
  });

  describe("update refusals", () => {
    beforeEach(async () => {
      await create(h, V, { volume: VOLUME });
    });
    const updateCases: BadInput[] = [
      { reason: "no wrapper", body: {}, status: 400, message: "volume is required" },
      {
        reason: "size is create-only",
        body: { volume: { size: "10" } },
        status: 400,
        message: "volume[size] is not allowed",
      },
      {
        reason: "blank name",
        body: { volume: { name: "" } },
        status: 400,
        message: "volume[name] must not be blank",
      },
      {
        reason: "add not an array",
        body: { volume: { allowed_instance_hrefs: { add: "/api/clouds/1/instances/1" } } },
        status: 400,
        message: "volume[allowed_instance_hrefs][add] must be an Array",
      },
      {
        reason: "unknown set",
        body: { volume: { allowed_instance_hrefs: { replace: [] } } },
        status: 400,
        message: "volume[allowed_instance_hrefs][replace] is not allowed",
      },
      {
        reason: "same href added and removed",
        body: {
          volume: {
            allowed_instance_hrefs: {
              add: ["/api/clouds/1/instances/1"],
              remove: ["/api/clouds/1/instances/1"],
            },
          },
        },
        status: 400,
        message: "names /api/clouds/1/instances/1 in both [add] and [remove]",
      },
      {
        reason: "unknown instance",
        body: { volume: { allowed_instance_hrefs: { add: ["/api/clouds/1/instances/99"] } } },
        status: 422,
        message: "Couldn't find Instance with ID=99",
      },
      {
        reason: "instance of another cloud",
        body: { volume: { allowed_instance_hrefs: { add: ["/api/clouds/2/instances/7"] } } },
        status: 422,
        message: "is not in cloud 1",
      },
      {
        reason: "not an instance href",
        body: { volume: { allowed_instance_hrefs: { add: ["/api/servers/1"] } } },
        status: 400,
        message: "volume[allowed_instance_hrefs][add] must be an instance href",
      },
    ];
    it.each(updateCases)("update refuses: $reason", async (row) => {
      await refuse(h, "PUT", `${V}/2`, row);
    });
    it("refuses unknown ids and ids of another cloud", async () => {
      await expectRefused(h, () => h.admin.get(`${V}/9`), 422, "Couldn't find Volume with ID=9");
      await expectRefused(
        h,
        () => h.admin.get("/api/clouds/2/volumes/2"),
        422,
        "Couldn't find Volume with ID=2",
      );
      await expectRefused(
        h,
        () => h.admin.put(`${V}/9`, { json: { volume: { name: "x" } } }),
        422,
        "Couldn't find Volume with ID=9",
      );
      await expectRefused(h, () => h.admin.delete(`${V}/9`), 422, "Couldn't find Volume with ID=9");
    });
  });
});
