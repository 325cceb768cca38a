import { describe, expect, it } from "vitest";
import { resources } from "../../src/simulator/resources/index.ts";
import { defaultSeed, validateSeed } from "../../src/simulator/seed.ts";
import { startFileSimulator } from "./file-simulator.ts";
import { startSimulator } from "./harness.ts";
import { create, expectRefused, index, rel, show } from "./net-helpers.ts";
import { V, VOLUME } from "./volumes-helpers.ts";

const h = await startFileSimulator({ resetEach: true });

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
});
