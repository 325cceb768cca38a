import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";

/**
 * Every CEL rule of the storage and access kinds, enforced by the devcluster over HTTP with
 * the generated CRDs: what must pass is admitted, what must fail gets a 422 naming the field.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const NS = "cel";
let cluster: DevCluster;
let custom: k8s.CustomObjectsApi;

const PLURALS: Record<string, string> = {
  Volume: "volumes",
  RecurringVolumeAttachment: "recurringvolumeattachments",
  Permission: "permissions",
};

beforeAll(async () => {
  cluster = await createDevCluster();
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  for (const file of ["volume.yaml", "recurringvolumeattachment.yaml", "permission.yaml"]) {
    // Raw HTTP: client-node's typed serializer drops the x-kubernetes-* keys of plain objects.
    const res = await fetch(`${cluster.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: "POST",
      headers: { authorization: `Bearer ${cluster.token}`, "content-type": "application/json" },
      body: JSON.stringify(parse(await readFile(join(ROOT, "crds", file), "utf8"))),
    });
    if (res.status !== 201) throw new Error(`CRD ${file}: ${res.status} ${await res.text()}`);
  }
  await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
  custom = kc.makeApiClient(k8s.CustomObjectsApi);
});
afterAll(async () => {
  await cluster?.close();
});

let counter = 0;
async function create(kind: string, spec: Record<string, unknown>): Promise<string> {
  const name = `o${counter++}`;
  await custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: NS,
    plural: PLURALS[kind]!,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec },
  });
  return name;
}

function update(kind: string, name: string, spec: Record<string, unknown>) {
  return custom.patchNamespacedCustomObject(
    { group: GROUP, version: VERSION, namespace: NS, plural: PLURALS[kind]!, name, body: { spec } },
    k8s.setHeaderOptions("Content-Type", "application/merge-patch+json"),
  );
}

/** The fields a refused write names; fails when the write is admitted. */
async function refusedFields(write: Promise<unknown>): Promise<string[]> {
  try {
    await write;
  } catch (error) {
    if (!(error instanceof k8s.ApiException) || error.code !== 422) throw error;
    const body = typeof error.body === "string" ? JSON.parse(error.body) : error.body;
    return (body.details?.causes ?? []).map((c: { field: string }) => c.field);
  }
  throw new Error("admitted");
}

const VOLUME = { cloudHref: "/api/clouds/1", datacenterHref: "/api/clouds/1/datacenters/1", size: 10 };

describe("Volume rules", () => {
  it.each([
    { reason: "no cloud", spec: { size: 1 }, field: "spec.cloudHref" },
    { reason: "both cloud forms", spec: { ...VOLUME, cloud: { name: "c" } }, field: "spec.cloudHref" },
    {
      reason: "both deployment forms",
      spec: { ...VOLUME, deploymentRef: { name: "w" }, deploymentHref: "/api/deployments/1" },
      field: "spec.deploymentRef",
    },
    {
      reason: "both volume type forms",
      spec: { ...VOLUME, volumeType: { name: "s" }, volumeTypeHref: "/api/clouds/1/volume_types/1" },
      field: "spec.volumeTypeHref",
    },
    {
      reason: "a placement group with a snapshot",
      spec: {
        ...VOLUME,
        placementGroupHref: "/api/pg/1",
        parentVolumeSnapshotHref: "/api/clouds/1/volume_snapshots/1",
      },
      field: "spec.placementGroupHref",
    },
    { reason: "a fractional size", spec: { ...VOLUME, size: 2.5 }, field: "spec.size" },
  ])("refuses $reason, naming $field", async ({ spec, field }) => {
    expect(await refusedFields(create("Volume", spec))).toContain(field);
  });

  it.each([
    ["datacenterHref", "/api/clouds/1/datacenters/2"],
    ["deploymentRef", { name: "other" }],
    ["deploymentHref", "/api/deployments/9"],
    ["description", "changed"],
    ["encrypted", true],
    ["imageHref", "/api/clouds/1/images/2"],
    ["iops", 500],
    ["parentVolumeSnapshotHref", "/api/clouds/1/volume_snapshots/2"],
    ["placementGroupHref", "/api/pg/2"],
    ["size", 20],
    ["volumeTypeHref", "/api/clouds/1/volume_types/2"],
    ["volumeType", { name: "io1" }],
    ["cloudHref", "/api/clouds/2"],
  ] as const)("refuses a change of %s after creation (transition rule)", async (field, value) => {
    const name = await create("Volume", VOLUME);
    expect(await refusedFields(update("Volume", name, { [field]: value }))).toContain(`spec.${field}`);
  });

  it("admits a change of name and allowedInstanceHrefs", async () => {
    const name = await create("Volume", { ...VOLUME, allowedInstanceHrefs: ["/api/clouds/1/instances/1"] });
    await update("Volume", name, { name: "renamed", allowedInstanceHrefs: ["/api/clouds/1/instances/2"] });
  });
});

describe("RecurringVolumeAttachment rules", () => {
  const RVA = {
    cloudHref: "/api/clouds/1",
    storageRef: { name: "v" },
    runnableHref: "/api/servers/1",
    device: "/dev/xvdb",
  };
  it.each([
    { reason: "device /dev/xvda", spec: { ...RVA, device: "/dev/xvda" }, field: "spec.device" },
    { reason: "device /dev/sdf", spec: { ...RVA, device: "/dev/sdf" }, field: "spec.device" },
    {
      reason: "both storage forms",
      spec: { ...RVA, storageHref: "/api/clouds/1/volumes/1" },
      field: "spec.storageRef",
    },
    { reason: "both cloud forms", spec: { ...RVA, cloud: { name: "c" } }, field: "spec.cloudHref" },
  ])("refuses $reason, naming $field", async ({ spec, field }) => {
    expect(await refusedFields(create("RecurringVolumeAttachment", spec))).toContain(field);
  });

  it("admits every allowed device, and changes (they replace the attachment)", async () => {
    const names: string[] = [];
    for (const l of "bcefghij")
      names.push(await create("RecurringVolumeAttachment", { ...RVA, device: `/dev/xvd${l}` }));
    await update("RecurringVolumeAttachment", names[0]!, { device: "/dev/xvdc", settings: { a: "b" } });
  });
});

describe("Permission rules", () => {
  it("refuses an unknown role, and a change of either field", async () => {
    expect(
      await refusedFields(create("Permission", { userHref: "/api/users/2", roleTitle: "superuser" })),
    ).toContain("spec.roleTitle");
    const name = await create("Permission", { userHref: "/api/users/2", roleTitle: "observer" });
    expect(await refusedFields(update("Permission", name, { roleTitle: "admin" }))).toEqual([
      "spec.roleTitle",
    ]);
    expect(await refusedFields(update("Permission", name, { userHref: "/api/users/3" }))).toEqual([
      "spec.userHref",
    ]);
  });
});
