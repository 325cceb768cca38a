import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { create, type Rep, rel, show } from "./net-helpers.ts";

// Issue 20 item 2, resource by resource: the links and attributes the real media types declare
// that an object has (conformance.test.ts checks the shapes of every resource at once).
const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});
const VOLUME = { name: "data", datacenter_href: "/api/clouds/1/datacenters/1" };
const V = "/api/clouds/1/volumes";

describe("volumes", () => {
  it("sends every link it has in the reference's order, the placement group as given", async () => {
    await create(h, V, {
      volume: {
        ...VOLUME,
        image_href: "/api/clouds/1/images/2",
        placement_group_href: "/api/placement_groups/7",
      },
    });
    const volume = await show(h, `${V}/2`);
    expect(volume.links.map((l) => l.rel)).toEqual([
      "self",
      "cloud",
      "datacenter",
      "volume_snapshots",
      "image",
      "recurring_volume_attachments",
      "placement_group",
    ]);
    expect(rel(volume, "placement_group")).toBe("/api/placement_groups/7");
    expect(volume.placement_group).toEqual({ links: [{ rel: "self", href: "/api/placement_groups/7" }] });
    expect(volume).toMatchObject({ iops: null, volume_type: null });
  });
});

describe("deployments", () => {
  it("a locked deployment links the user who locked it, before self; unlocking drops the link", async () => {
    const staging = await show(h, "/api/deployments/2");
    expect(staging.links.slice(0, 3)).toEqual([
      { rel: "inputs", href: "/api/deployments/2/inputs" },
      { rel: "lock_user", href: "/api/users/1" },
      { rel: "self", href: "/api/deployments/2" },
    ]);
    expect((await h.admin.post("/api/deployments/2/unlock")).status).toBe(204);
    expect(rel(await show(h, "/api/deployments/2"), "lock_user")).toBeUndefined();
    expect((await h.user2.post("/api/deployments/1/lock")).status).toBe(403);
    expect((await h.admin.post("/api/deployments/1/lock")).status).toBe(204);
    expect(rel(await show<Rep>(h, "/api/deployments/1"), "lock_user")).toBe("/api/users/1");
  });
});
