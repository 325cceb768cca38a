import pino from "pino";
import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import {
  DeletionBlockedError,
  DependencyNotReadyError,
  InvalidSpecError,
  NameLookup,
  WaitError,
} from "../../runtime/sdk/index.ts";
import {
  allowedInstanceChanges,
  createParams,
  createVolumeKind,
  desiredVolume,
  diffVolume,
  updateParams,
  type VolumeCalls,
  type VolumeDesired,
  type VolumeObserved,
  volumeAtProvider,
} from "./kind.ts";
import { volumeSpecSchema } from "./schema.ts";

const observed: VolumeObserved = {
  href: "/api/clouds/1/volumes/7",
  name: "data",
  size: 100,
  description: null,
  status: "available",
  resourceUid: "vol-7",
  iops: null,
  links: {
    cloud: "/api/clouds/1",
    datacenter: "/api/clouds/1/datacenters/1",
    volume_type: "/api/clouds/1/volume_types/1",
    deployment: "/api/deployments/3",
  },
  attributes: { allowed_instance_hrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"] },
};

function desired(over: Partial<VolumeDesired> = {}): VolumeDesired {
  return {
    cloudHref: "/api/clouds/1",
    name: "data",
    datacenterHref: "/api/clouds/1/datacenters/1",
    size: 100,
    volumeTypeHref: "/api/clouds/1/volume_types/1",
    deploymentHref: "/api/deployments/3",
    fields: { cloud: "cloudHref", deployment: "deploymentRef", volumeType: "volumeType" },
    ...over,
  };
}

describe("desiredVolume", () => {
  it("defaults the name to metadata.name and takes the resolved references", () => {
    const spec = volumeSpecSchema.parse({
      cloud: { name: "c" },
      size: 5,
      deploymentRef: { name: "web" },
      volumeType: { name: "standard" },
    });
    const d = desiredVolume(
      spec,
      { name: "meta" },
      {
        cloudHref: "/api/clouds/1",
        volumeTypeHref: "/api/clouds/1/volume_types/1",
        deployment: { kind: "Deployment", name: "web", href: "/api/deployments/3", atProvider: {} },
      },
    );
    expect(d).toEqual({
      cloudHref: "/api/clouds/1",
      name: "meta",
      size: 5,
      deploymentHref: "/api/deployments/3",
      volumeTypeHref: "/api/clouds/1/volume_types/1",
      fields: { cloud: "cloud", deployment: "deploymentRef", volumeType: "volumeType" },
    });
  });

  it("leaves the allowed instances unmanaged when unset, and de-duplicates them when set", () => {
    const spec = volumeSpecSchema.parse({ cloudHref: "/api/clouds/1" });
    expect(
      desiredVolume(spec, { name: "v" }, { cloudHref: "/api/clouds/1" }).allowedInstanceHrefs,
    ).toBeUndefined();
    const withList = volumeSpecSchema.parse({
      cloudHref: "/api/clouds/1",
      allowedInstanceHrefs: ["/api/i/1", "/api/i/1"],
    });
    expect(
      desiredVolume(withList, { name: "v" }, { cloudHref: "/api/clouds/1" }).allowedInstanceHrefs,
    ).toEqual(["/api/i/1"]);
  });
});

describe("diffVolume", () => {
  const cases: {
    reason: string;
    desired: VolumeDesired;
    observed?: Partial<VolumeObserved>;
    want: string[];
  }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "renamed", desired: desired({ name: "data2" }), want: ["name"] },
    { reason: "size changed", desired: desired({ size: 200 }), want: ["size"] },
    { reason: "description set differently", desired: desired({ description: "x" }), want: ["description"] },
    { reason: "empty description equals null", desired: desired({ description: "" }), want: [] },
    {
      reason: "other datacenter",
      desired: desired({ datacenterHref: "/api/clouds/1/datacenters/2" }),
      want: ["datacenterHref"],
    },
    {
      reason: "other volume type, named by the spec field used",
      desired: desired({ volumeTypeHref: "/api/clouds/1/volume_types/2" }),
      want: ["volumeType"],
    },
    {
      reason: "other deployment",
      desired: desired({ deploymentHref: "/api/deployments/4" }),
      want: ["deploymentRef"],
    },
    {
      reason: "a link the service does not show is not held against the spec",
      desired: desired({ imageHref: "/api/clouds/1/images/1" }),
      want: [],
    },
    {
      reason: "iops compared where shown (encrypted is not shown here)",
      desired: desired({ iops: 100, encrypted: true }),
      observed: { iops: 50 },
      want: ["iops"],
    },
    {
      reason:
        "iops in cloud_specific_attributes is not read: the real volume declares its own iops attribute",
      desired: desired({ iops: 100 }),
      observed: { attributes: { ...observed.attributes, iops: 50 } },
      want: [],
    },
    {
      reason: "placement group from the placement_group link",
      desired: desired({ placementGroupHref: "/api/clouds/1/placement_groups/1" }),
      observed: { links: { ...observed.links, placement_group: "/api/clouds/1/placement_groups/2" } },
      want: ["placementGroupHref"],
    },
    {
      reason: "unmanaged allowed instances",
      desired: desired({ allowedInstanceHrefs: undefined }),
      want: [],
    },
    {
      reason: "same allowed instances in another order",
      desired: desired({ allowedInstanceHrefs: ["/api/clouds/1/instances/2", "/api/clouds/1/instances/1"] }),
      want: [],
    },
    {
      reason: "allowed instances differ",
      desired: desired({ allowedInstanceHrefs: ["/api/clouds/1/instances/1"] }),
      want: ["allowedInstanceHrefs"],
    },
    {
      reason: "an absent list reads as empty",
      desired: desired({ allowedInstanceHrefs: [] }),
      observed: { attributes: {} },
      want: [],
    },
  ];
  it.each(cases)("$reason", ({ desired, observed: over, want }) => {
    expect(diffVolume(desired, { ...observed, ...over }).map((d) => d.field)).toEqual(want);
  });
});

describe("parameters", () => {
  it("create sends every value as a string, the size as digits", () => {
    expect(createParams(desired({ iops: 300, encrypted: false, description: "d" }))).toEqual({
      name: "data",
      datacenter_href: "/api/clouds/1/datacenters/1",
      deployment_href: "/api/deployments/3",
      description: "d",
      encrypted: "false",
      iops: "300",
      size: "100",
      volume_type_href: "/api/clouds/1/volume_types/1",
    });
  });

  it("the update sends exactly the add and remove sets that differ", () => {
    const d = desired({ allowedInstanceHrefs: ["/api/clouds/1/instances/2", "/api/clouds/1/instances/3"] });
    expect(allowedInstanceChanges(d, observed)).toEqual({
      add: ["/api/clouds/1/instances/3"],
      remove: ["/api/clouds/1/instances/1"],
    });
    expect(updateParams(diffVolume(d, observed), d, observed)).toEqual({
      allowed_instance_hrefs: { add: ["/api/clouds/1/instances/3"], remove: ["/api/clouds/1/instances/1"] },
    });
  });

  it("an add-only change sends no remove set, and a rename only the name", () => {
    const d = desired({
      allowedInstanceHrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2", "/api/i/9"],
    });
    expect(updateParams(diffVolume(d, observed), d, observed)).toEqual({
      allowed_instance_hrefs: { add: ["/api/i/9"] },
    });
    const r = desired({ name: "renamed" });
    expect(updateParams(diffVolume(r, observed), r, observed)).toEqual({ name: "renamed" });
  });

  it("atProvider flattens links and attributes, leaving nulls out (a merge patch would delete them)", () => {
    expect(volumeAtProvider(observed)).toEqual({
      name: "data",
      size: 100,
      status: "available",
      resourceUid: "vol-7",
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      deploymentHref: "/api/deployments/3",
      volumeTypeHref: "/api/clouds/1/volume_types/1",
      allowedInstanceHrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"],
    });
  });
});

/** A fake of the calls the kind makes, recording them. */
function fakeCalls(over: Partial<VolumeCalls> = {}) {
  const log: string[] = [];
  const volumes: VolumeCalls = {
    show: async () => observed,
    index: async () => [observed],
    create: async () => "/api/clouds/1/volumes/8",
    update: async (href, params) => void log.push(`update ${href} ${JSON.stringify(params)}`),
    destroy: async (href) => void log.push(`destroy ${href}`),
    attachments: async () => [],
    volumeTypes: async (cloud) => {
      log.push(`volume types ${cloud}`);
      return [
        { name: "standard", href: `${cloud}/volume_types/1` },
        { name: "standard-old", href: `${cloud}/volume_types/9` },
      ];
    },
    clouds: async () => {
      log.push("clouds");
      return [
        { name: "EC2", href: "/api/clouds/1" },
        { name: "dup", href: "/api/clouds/2" },
        { name: "dup", href: "/api/clouds/3" },
      ];
    },
    ...over,
  };
  return { client: { volumes }, log };
}

describe("volume kind", () => {
  const names = new NameLookup();
  const ctx = (client: object, account = "ns/default") => ({
    meta: { name: "v", namespace: "ns" },
    client,
    refs: {},
    log: pino({ level: "silent" }),
    names,
    account,
  });

  it("looks the cloud and volume type names up exactly, through the runtime's cache per account", async () => {
    const kind = createVolumeKind();
    const { client, log } = fakeCalls();
    const spec = volumeSpecSchema.parse({ cloud: { name: "EC2" }, volumeType: { name: "standard" } });
    const d1 = await kind.desired(spec, ctx(client) as never);
    const d2 = await kind.desired(spec, ctx(client) as never);
    expect(d1.cloudHref).toBe("/api/clouds/1");
    expect(d1.volumeTypeHref).toBe("/api/clouds/1/volume_types/1");
    expect(d2).toEqual(d1);
    expect(log).toEqual(["clouds", "volume types /api/clouds/1"]);
    await kind.desired(spec, ctx(client, "other/default") as never);
    expect(log).toHaveLength(4);
  });

  it("an unknown name waits (DependencyNotReady) and an ambiguous one is InvalidSpec, naming the field", async () => {
    const kind = createVolumeKind();
    const { client } = fakeCalls();
    const missing = volumeSpecSchema.parse({ cloudHref: "/api/clouds/1", volumeType: { name: "nope" } });
    await expect(kind.desired(missing, ctx(client, "x/y") as never)).rejects.toThrow(DependencyNotReadyError);
    await expect(kind.desired(missing, ctx(client, "x/y") as never)).rejects.toThrow(
      /spec\.volumeType\.name/,
    );
    const dup = volumeSpecSchema.parse({ cloud: { name: "dup" } });
    await expect(kind.desired(dup, ctx(client, "x/y") as never)).rejects.toThrow(InvalidSpecError);
    await expect(kind.desired(dup, ctx(client, "x/y") as never)).rejects.toThrow(
      /spec\.cloud\.name: "dup" names 2 objects/,
    );
  });

  it("deletion waits while recurring attachments reference the volume (DeletionBlocked), destroying nothing", async () => {
    const kind = createVolumeKind();
    const { client, log } = fakeCalls({
      attachments: async () => ["/api/clouds/1/recurring_volume_attachments/4"],
    });
    await expect(kind.delete(client, observed.href, observed)).rejects.toBeInstanceOf(DeletionBlockedError);
    expect(log).toEqual([]);
  });

  it.each(["in-use", "attaching"])(
    "a volume %s is not deleted: the reconciler waits with a message saying so",
    async (status) => {
      const kind = createVolumeKind();
      const { client, log } = fakeCalls();
      const inUse = { ...observed, status };
      const error = await kind.delete(client, inUse.href, inUse).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WaitError);
      expect((error as Error).message).toMatch(new RegExp(`is ${status} .*waiting for it to be detached`));
      expect(log).toEqual([]);
    },
  );

  it("a 422 from the destroy (snapshots, an attachment made meanwhile) waits instead of stalling", async () => {
    const kind = createVolumeKind();
    const refused = new ApiError({
      kind: "conflict",
      code: ApiErrorCodes.conflict,
      method: "DELETE",
      href: observed.href,
      message: "a volume that still has dependent snapshots cannot be deleted",
    });
    const { client } = fakeCalls({ destroy: () => Promise.reject(refused) });
    const error = await kind.delete(client, observed.href, observed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionBlockedError);
    expect((error as Error).message).toMatch(/refuses to delete.*dependent snapshots/);
  });

  it("a pending create's lookup takes only same-named volumes showing the spec's create-only values", async () => {
    const kind = createVolumeKind();
    const other = { ...observed, href: "/api/clouds/1/volumes/9", size: 50 };
    const { client } = fakeCalls({
      index: async () => [observed, other, { ...observed, href: "/x", name: "data-2" }],
    });
    expect((await kind.lookup(client, desired())).map((v) => v.href)).toEqual([observed.href]);
    expect(await kind.lookup(client, desired({ size: 50 }))).toEqual([other]);
  });

  it("an available volume without attachments is destroyed", async () => {
    const kind = createVolumeKind();
    const { client, log } = fakeCalls();
    await kind.delete(client, observed.href, observed);
    expect(log).toEqual([`destroy ${observed.href}`]);
  });

  it("every field but name and allowedInstanceHrefs is immutable, and the kind never replaces", () => {
    const kind = createVolumeKind();
    expect(kind.replace).toBeUndefined();
    expect(kind.immutable).not.toContain("name");
    expect(kind.immutable).not.toContain("allowedInstanceHrefs");
    expect(kind.immutable).toEqual(expect.arrayContaining(["size", "volumeType", "deploymentRef", "cloud"]));
  });

  it("references the Deployment it names, and drift is observed per cloud", () => {
    const kind = createVolumeKind();
    const spec = volumeSpecSchema.parse({ cloud: { name: "c" }, deploymentRef: { name: "web" } });
    expect(kind.references(spec)).toEqual([{ field: "deploymentRef", kind: "Deployment", name: "web" }]);
    expect(kind.index?.scope(spec, { atProvider: { cloudHref: "/api/clouds/2" } })).toBe("/api/clouds/2");
    expect(kind.index?.scope(spec, {})).toBeUndefined();
  });
});
