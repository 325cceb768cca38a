import { beforeEach, describe, it } from "vitest";
import { startFileSimulator } from "./file-simulator.ts";
import { type BadInput, create, expectRefused, refuse } from "./net-helpers.ts";
import { V, VOLUME } from "./volumes-helpers.ts";

const h = await startFileSimulator({ resetEach: true });

describe("volumes", () => {
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
