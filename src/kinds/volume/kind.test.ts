import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import {
  DeletionBlockedError,
  DependencyNotReadyError,
  InvalidSpecError,
  WaitError,
} from "../../runtime/sdk/index.ts";
import { desiredContext } from "../shared/context.testing.ts";
import type { TableDesired, TableObserved } from "../shared/table-kind.ts";
import { createVolumeKind } from "./kind.ts";
import { type VolumeClient, volumeSpecSchema } from "./schema.ts";

const V = "/api/clouds/1/volumes/7";

/** A volume as the real service shows it; `links` and the members given replace the default ones. */
function volume(over: Record<string, unknown> = {}, links: Record<string, string> = {}) {
  const rels = {
    self: V,
    cloud: "/api/clouds/1",
    datacenter: "/api/clouds/1/datacenters/1",
    volume_type: "/api/clouds/1/volume_types/1",
    deployment: "/api/deployments/3",
    ...links,
  };
  return {
    name: "data",
    size: 100,
    description: null,
    status: "available",
    resource_uid: "vol-7",
    iops: null,
    cloud_specific_attributes: {
      allowed_instance_hrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"],
    },
    links: Object.entries(rels).map(([rel, href]) => ({ rel, href })),
    ...over,
  };
}

/** A fake service of one cloud's volumes, its volume types and the clouds, logging the calls. */
function fake(over: { volumes?: object[]; attachments?: string[]; destroy?: () => Promise<void> } = {}) {
  const log: string[] = [];
  const items = over.volumes ?? [volume()];
  const self = (v: { links: { rel: string; href: string }[] }) => v.links.find((l) => l.rel === "self")!.href;
  const named = (name: string, href: string) => ({ name, links: [{ rel: "self", href }] });
  const client = {
    volumes: {
      show: async (href: string) => items.find((v) => self(v as never) === href),
      index: async () => items,
      create: async (cloud: string, params: object) => {
        log.push(`create ${cloud} ${JSON.stringify(params)}`);
        return "/api/clouds/1/volumes/8";
      },
      update: async (href: string, params: object) =>
        void log.push(`update ${href} ${JSON.stringify(params)}`),
      destroy: over.destroy ?? (async (href: string) => void log.push(`destroy ${href}`)),
    },
    recurringVolumeAttachments: {
      index: async () => (over.attachments ?? []).map((a) => named("", a)),
    },
    clouds: {
      volumeTypes: async (cloud: string) => {
        log.push(`volume types ${cloud}`);
        return [
          named("standard", `${cloud}/volume_types/1`),
          named("standard-old", `${cloud}/volume_types/9`),
        ];
      },
      index: async () => {
        log.push("clouds");
        return [named("EC2", "/api/clouds/1"), named("dup", "/api/clouds/2"), named("dup", "/api/clouds/3")];
      },
    },
  } as unknown as VolumeClient;
  return { client, log };
}

const kind = createVolumeKind();

/** The volume as the kind observes it, from the representation given. */
async function observedOf(rep = volume()): Promise<TableObserved> {
  return (await kind.observe(fake({ volumes: [rep] }).client, V, {
    cloudHref: "/api/clouds/1",
    fields: {},
  }))!;
}

const observed = await observedOf();

function desired(over: Record<string, unknown> = {}): TableDesired {
  return {
    cloudHref: "/api/clouds/1",
    name: "data",
    datacenterHref: "/api/clouds/1/datacenters/1",
    size: 100,
    volumeTypeHref: "/api/clouds/1/volume_types/1",
    deploymentHref: "/api/deployments/3",
    fields: { deploymentHref: "deploymentRef", volumeTypeHref: "volumeType" },
    ...over,
  };
}

const ctx = (client: VolumeClient, account = "ns/default", refs = {}) => ({
  ...desiredContext(client, "v", refs),
  account,
});

describe("volume desired state", () => {
  it("defaults the name to metadata.name and takes the resolved references", async () => {
    const spec = volumeSpecSchema.parse({
      cloud: { name: "EC2" },
      size: 5,
      deploymentRef: { name: "web" },
      volumeType: { name: "standard" },
    });
    const web = { kind: "Deployment", name: "web", href: "/api/deployments/3", atProvider: {} };
    const d = await kind.desired(spec, {
      ...desiredContext(fake().client, "meta", { deploymentRef: web }),
    });
    expect(d).toEqual({
      cloudHref: "/api/clouds/1",
      name: "meta",
      size: 5,
      deploymentHref: "/api/deployments/3",
      volumeTypeHref: "/api/clouds/1/volume_types/1",
      fields: { cloudHref: "cloud", deploymentHref: "deploymentRef", volumeTypeHref: "volumeType" },
    });
  });

  it("leaves the allowed instances unmanaged when unset, and compares them without repeats when set", async () => {
    const { client } = fake();
    const spec = volumeSpecSchema.parse({ cloudHref: "/api/clouds/1" });
    expect((await kind.desired(spec, ctx(client))).allowedInstanceHrefs).toBeUndefined();
    const withList = volumeSpecSchema.parse({
      cloudHref: "/api/clouds/1",
      allowedInstanceHrefs: ["/api/i/1", "/api/i/1"],
    });
    const d = await kind.desired(withList, ctx(client));
    expect(kind.diff(d, observed).find((x) => x.field === "allowedInstanceHrefs")?.desired).toEqual([
      "/api/i/1",
    ]);
  });
});

describe("volume diff", () => {
  const cases: {
    reason: string;
    desired: TableDesired;
    observed?: Promise<TableObserved>;
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
      observed: observedOf(volume({ iops: "50" })),
      want: ["iops"],
    },
    {
      reason:
        "iops in cloud_specific_attributes is not read: the real volume declares its own iops attribute",
      desired: desired({ iops: 100 }),
      observed: observedOf(volume({ cloud_specific_attributes: { iops: 50 } })),
      want: [],
    },
    {
      reason: "placement group from the placement_group link",
      desired: desired({ placementGroupHref: "/api/clouds/1/placement_groups/1" }),
      observed: observedOf(volume({}, { placement_group: "/api/clouds/1/placement_groups/2" })),
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
      observed: observedOf(volume({ cloud_specific_attributes: null })),
      want: [],
    },
  ];
  it.each(cases)("$reason", async ({ desired, observed: shown, want }) => {
    expect(kind.diff(desired, (await shown) ?? observed).map((d) => d.field)).toEqual(want);
  });
});

describe("parameters", () => {
  it("create sends every value as a string, the size as digits", async () => {
    const { client, log } = fake();
    // The allowed instances are not a create parameter: the update after the first observation sets them.
    const allowed = ["/api/clouds/1/instances/1"];
    await kind.create(
      client,
      desired({ iops: 300, encrypted: false, description: "d", allowedInstanceHrefs: allowed }),
    );
    const [, cloud, params] = /^create (\S+) (.*)$/.exec(log[0]!)!;
    expect(cloud).toBe("/api/clouds/1");
    expect(JSON.parse(params!)).toEqual({
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

  it("the update sends exactly the add and remove sets that differ", async () => {
    const { client, log } = fake();
    const d = desired({ allowedInstanceHrefs: ["/api/clouds/1/instances/2", "/api/clouds/1/instances/3"] });
    await kind.update(client, V, d, observed, kind.diff(d, observed));
    expect(log).toEqual([
      `update ${V} {"allowed_instance_hrefs":{"add":["/api/clouds/1/instances/3"],"remove":["/api/clouds/1/instances/1"]}}`,
    ]);
  });

  it("an add-only change sends no remove set, and a rename only the name", async () => {
    const { client, log } = fake();
    const d = desired({
      allowedInstanceHrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2", "/api/i/9"],
    });
    await kind.update(client, V, d, observed, kind.diff(d, observed));
    const r = desired({ name: "renamed" });
    await kind.update(client, V, r, observed, kind.diff(r, observed));
    expect(log).toEqual([
      `update ${V} {"allowed_instance_hrefs":{"add":["/api/i/9"]}}`,
      `update ${V} {"name":"renamed"}`,
    ]);
  });

  it("atProvider flattens links and attributes, leaving nulls out (a merge patch would delete them)", () => {
    expect(kind.atProvider(observed)).toEqual({
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

describe("volume kind", () => {
  it("looks the cloud and volume type names up exactly, through the runtime's cache per account", async () => {
    const { client, log } = fake();
    const spec = volumeSpecSchema.parse({ cloud: { name: "EC2" }, volumeType: { name: "standard" } });
    const shared = ctx(client);
    const d1 = await kind.desired(spec, shared);
    const d2 = await kind.desired(spec, { ...ctx(client), names: shared.names });
    expect(d1.cloudHref).toBe("/api/clouds/1");
    expect(d1.volumeTypeHref).toBe("/api/clouds/1/volume_types/1");
    expect(d2).toEqual(d1);
    expect(log).toEqual(["clouds", "volume types /api/clouds/1"]);
    await kind.desired(spec, { ...ctx(client, "other/default"), names: shared.names });
    expect(log).toHaveLength(4);
  });

  it("an unknown name waits (DependencyNotReady) and an ambiguous one is InvalidSpec, naming the field", async () => {
    const { client } = fake();
    const missing = volumeSpecSchema.parse({ cloudHref: "/api/clouds/1", volumeType: { name: "nope" } });
    await expect(kind.desired(missing, ctx(client, "x/y"))).rejects.toThrow(DependencyNotReadyError);
    await expect(kind.desired(missing, ctx(client, "x/y"))).rejects.toThrow(/spec\.volumeType\.name/);
    const dup = volumeSpecSchema.parse({ cloud: { name: "dup" } });
    await expect(kind.desired(dup, ctx(client, "x/y"))).rejects.toThrow(InvalidSpecError);
    await expect(kind.desired(dup, ctx(client, "x/y"))).rejects.toThrow(
      /spec\.cloud\.name: "dup" names 2 objects/,
    );
  });

  it("deletion waits while recurring attachments reference the volume (DeletionBlocked), destroying nothing", async () => {
    const { client, log } = fake({ attachments: ["/api/clouds/1/recurring_volume_attachments/4"] });
    await expect(kind.delete(client, V, observed)).rejects.toBeInstanceOf(DeletionBlockedError);
    expect(log).toEqual([]);
  });

  it.each(["in-use", "attaching"])(
    "a volume %s is not deleted: the reconciler waits with a message saying so",
    async (status) => {
      const { client, log } = fake();
      const error = await kind.delete(client, V, { ...observed, status }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WaitError);
      expect((error as Error).message).toMatch(new RegExp(`is ${status} .*waiting for it to be detached`));
      expect(log).toEqual([]);
    },
  );

  it("a 422 from the destroy (snapshots, an attachment made meanwhile) waits instead of stalling", async () => {
    const refused = new ApiError({
      kind: "conflict",
      code: ApiErrorCodes.conflict,
      method: "DELETE",
      href: V,
      message: "a volume that still has dependent snapshots cannot be deleted",
    });
    const { client } = fake({ destroy: () => Promise.reject(refused) });
    const error = await kind.delete(client, V, observed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionBlockedError);
    expect((error as Error).message).toMatch(/refuses to delete.*dependent snapshots/);
  });

  it("a pending create's lookup takes only same-named volumes showing the spec's create-only values", async () => {
    const other = volume({ size: 50 }, { self: "/api/clouds/1/volumes/9" });
    const renamed = volume({ name: "data-2" }, { self: "/x" });
    const { client } = fake({ volumes: [volume(), other, renamed] });
    expect((await kind.lookup(client, desired())).map((v) => v.href)).toEqual([V]);
    expect((await kind.lookup(client, desired({ size: 50 }))).map((v) => v.href)).toEqual([
      "/api/clouds/1/volumes/9",
    ]);
  });

  it("an available volume without attachments is destroyed", async () => {
    const { client, log } = fake();
    await kind.delete(client, V, observed);
    expect(log).toEqual([`destroy ${V}`]);
  });

  it("every field but name and allowedInstanceHrefs is immutable, and the kind never replaces", () => {
    expect(kind.replace).toBeUndefined();
    expect(kind.immutable).not.toContain("name");
    expect(kind.immutable).not.toContain("allowedInstanceHrefs");
    expect(kind.immutable).toEqual(expect.arrayContaining(["size", "volumeType", "deploymentRef", "cloud"]));
  });

  it("references the Deployment it names, and drift is observed per cloud", () => {
    const spec = volumeSpecSchema.parse({ cloud: { name: "c" }, deploymentRef: { name: "web" } });
    expect(kind.references(spec)).toEqual([{ field: "deploymentRef", kind: "Deployment", name: "web" }]);
    expect(kind.index?.scope(spec, { atProvider: { cloudHref: "/api/clouds/2" } })).toBe("/api/clouds/2");
    expect(kind.index?.scope(spec, {})).toBeUndefined();
  });
});
