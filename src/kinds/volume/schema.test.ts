import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { volumeKind } from "./kind.ts";
import { VOLUME_CREATE_ONLY, volumeSpecSchema } from "./schema.ts";

const admit = admitter(volumeKind);
const base = { cloudHref: "/api/clouds/1", datacenterHref: "/api/clouds/1/datacenters/1", size: 10 };

describe("Volume CRD admission (CEL)", () => {
  const accepted: { reason: string; spec: Record<string, unknown> }[] = [
    { reason: "cloud by href", spec: base },
    { reason: "cloud by name", spec: { cloud: { name: "EC2 us-east-1" }, size: 1 } },
    { reason: "volume type by name", spec: { ...base, volumeType: { name: "standard" } } },
    { reason: "deployment by reference", spec: { ...base, deploymentRef: { name: "web" } } },
    {
      reason: "snapshot without placement group",
      spec: { ...base, parentVolumeSnapshotHref: "/api/clouds/1/volume_snapshots/1" },
    },
    {
      reason: "placement group without snapshot",
      spec: { ...base, placementGroupHref: "/api/placement_groups/1" },
    },
    { reason: "allowed instances", spec: { ...base, allowedInstanceHrefs: ["/api/clouds/1/instances/1"] } },
  ];
  it.each(accepted)("accepts $reason", ({ spec }) => {
    expect(admit(spec)).toEqual([]);
  });

  const rejected: { reason: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
    {
      reason: "no cloud",
      spec: { size: 1 },
      field: "spec.cloudHref",
      message: /exactly one of cloudHref, cloud/,
    },
    {
      reason: "both cloud forms",
      spec: { ...base, cloud: { name: "x" } },
      field: "spec.cloudHref",
      message: /exactly one of cloudHref, cloud/,
    },
    {
      reason: "both deployment forms",
      spec: { ...base, deploymentRef: { name: "web" }, deploymentHref: "/api/deployments/1" },
      field: "spec.deploymentRef",
      message: /at most one of deploymentRef, deploymentHref/,
    },
    {
      reason: "both volume type forms",
      spec: { ...base, volumeTypeHref: "/api/clouds/1/volume_types/1", volumeType: { name: "standard" } },
      field: "spec.volumeTypeHref",
      message: /at most one of volumeTypeHref, volumeType/,
    },
    {
      reason: "placement group with a snapshot",
      spec: {
        ...base,
        placementGroupHref: "/api/pg/1",
        parentVolumeSnapshotHref: "/api/clouds/1/volume_snapshots/1",
      },
      field: "spec.placementGroupHref",
      message: /cannot be combined with parentVolumeSnapshotHref/,
    },
    { reason: "a fractional size", spec: { ...base, size: 1.5 }, field: "spec.size", message: /integer/ },
    {
      reason: "a size of zero",
      spec: { ...base, size: 0 },
      field: "spec.size",
      message: /greater than or equal to 1/,
    },
    {
      reason: "a duplicate allowed instance",
      spec: { ...base, allowedInstanceHrefs: ["/api/i/1", "/api/i/1"] },
      field: "spec.allowedInstanceHrefs[1]",
      message: /Duplicate/,
    },
  ];
  it.each(rejected)("rejects $reason, naming $field", ({ spec, field, message }) => {
    const causes = admit(spec);
    expect(causes.map((c) => c.field)).toContain(field);
    expect(causes.find((c) => c.field === field)?.message).toMatch(message);
  });

  it("refuses a size change as a transition rule, saying to create a new Volume", () => {
    const causes = admit({ ...base, size: 20 }, base);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: "spec.size" });
    expect(causes[0]?.message).toMatch(/size is immutable.*create a new Volume/);
  });

  it.each([...VOLUME_CREATE_ONLY])("every create-only field is immutable: %s", (field) => {
    const values: Record<string, [unknown, unknown]> = {
      cloudHref: ["/api/clouds/1", "/api/clouds/2"],
      cloud: [{ name: "a" }, { name: "b" }],
      datacenterHref: ["/api/clouds/1/datacenters/1", "/api/clouds/1/datacenters/2"],
      deploymentRef: [{ name: "a" }, { name: "b" }],
      deploymentHref: ["/api/deployments/1", "/api/deployments/2"],
      description: ["a", "b"],
      encrypted: [false, true],
      imageHref: ["/api/clouds/1/images/1", "/api/clouds/1/images/2"],
      iops: [100, 200],
      parentVolumeSnapshotHref: ["/api/s/1", "/api/s/2"],
      placementGroupHref: ["/api/pg/1", "/api/pg/2"],
      size: [1, 2],
      volumeTypeHref: ["/api/clouds/1/volume_types/1", "/api/clouds/1/volume_types/2"],
      volumeType: [{ name: "a" }, { name: "b" }],
    };
    const [before, after] = values[field]!;
    const other = field === "cloudHref" || field === "cloud" ? {} : { cloudHref: "/api/clouds/1" };
    const causes = admit({ ...other, [field]: after }, { ...other, [field]: before });
    expect(causes.map((c) => c.field)).toContain(`spec.${field}`);
    // Adding the field later is a change too.
    if (field !== "cloudHref" && field !== "cloud")
      expect(admit({ ...other, [field]: after }, other).map((c) => c.field)).toContain(`spec.${field}`);
  });

  it("lets name and allowedInstanceHrefs change", () => {
    expect(
      admit(
        { ...base, name: "new", allowedInstanceHrefs: ["/api/i/2"] },
        { ...base, name: "old", allowedInstanceHrefs: ["/api/i/1"] },
      ),
    ).toEqual([]);
  });

  it("the zod schema names the field of a bad value (reconciler side)", () => {
    const r = volumeSpecSchema.safeParse({ cloudHref: "clouds/1", size: "10" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["cloudHref", "size"]),
    );
  });
});
