import { describe, expect, it } from "vitest";
import { waitForEventReason } from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  refusal,
  remove,
  serviceApi,
  simErrors,
  simRows,
  waitForCond,
  waitGone,
} from "./helpers.ts";
import {
  attachments,
  operator,
  readyNamespace,
  stack,
  useStorageStack,
  VOLUME,
  volumeById,
} from "./volume-harness.ts";

useStorageStack();

describe("RecurringVolumeAttachment", () => {
  const ATTACHMENT = {
    cloudHref: "/api/clouds/1",
    storageRef: { name: "disk" },
    runnableHref: "/api/servers/1",
    device: "/dev/xvdb",
  };

  it("admission refuses a device outside /dev/xvd[bcefghij], naming spec.device", async () => {
    const ns = await readyNamespace();
    const bad = await refusal(
      apply(stack, ns, "RecurringVolumeAttachment", "bad", { ...ATTACHMENT, device: "/dev/xvda" }),
    );
    expect(bad.code).toBe(422);
    expect(bad.fields).toEqual(["spec.device"]);
  });

  it("waits for its Volume, replaces itself on any change (delete, then create), and goes before its Volume", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "RecurringVolumeAttachment", "att", ATTACHMENT);
    await waitForCond(stack, ns, "RecurringVolumeAttachment", "att", "Ready", "False", {
      reason: "DependencyNotReady",
      message: /Volume disk/,
    });
    await apply(stack, ns, "Volume", "disk", VOLUME);
    const disk = (await waitForCond(stack, ns, "Volume", "disk", "Ready", "True")).status!.href!;
    const first = await waitForCond(stack, ns, "RecurringVolumeAttachment", "att", "Ready", "True");
    expect(attachments(disk)).toMatchObject([{ device: "/dev/xvdb", runnable_href: "/api/servers/1" }]);
    expect(first.status?.atProvider).toMatchObject({
      device: "/dev/xvdb",
      status: "attached",
      storageHref: disk,
    });

    // A device change: the old attachment is deleted, a new one created, with an event.
    await patch(stack, ns, "RecurringVolumeAttachment", "att", { spec: { device: "/dev/xvdc" } });
    const second = await waitForCond(stack, ns, "RecurringVolumeAttachment", "att", "Ready", "True");
    expect(second.status?.href).not.toBe(first.status?.href);
    expect(attachments(disk)).toMatchObject([{ device: "/dev/xvdc" }]);
    await waitForEventReason(stack, ns, "att", "Replaced");

    // Settings are not shown by the service: their change is seen through status.applied.
    await patch(stack, ns, "RecurringVolumeAttachment", "att", {
      spec: { settings: { delete_on_termination: "true" } },
    });
    const third = await waitForCond(stack, ns, "RecurringVolumeAttachment", "att", "Ready", "True");
    expect(third.status?.href).not.toBe(second.status?.href);
    expect(third.status?.applied).toEqual({ settings: { delete_on_termination: "true" } });
    expect(attachments(disk)).toMatchObject([
      { device: "/dev/xvdc", settings: { delete_on_termination: "true" } },
    ]);

    // Deleted together: the Volume waits (DeletionBlocked) until the attachment is gone; the service never refuses.
    const volumeDeleteErrors = (await simErrors(stack, /volumes/)).filter(
      (r) => r.method === "DELETE",
    ).length;
    await remove(stack, ns, "Volume", "disk");
    await waitForCond(stack, ns, "Volume", "disk", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /att/,
    });
    expect(volumeById(disk)).toBeDefined();
    await deleteAndWaitGone(stack, ns, "RecurringVolumeAttachment", "att");
    await waitGone(stack, ns, "Volume", "disk");
    expect(volumeById(disk)).toBeUndefined();
    expect(attachments(disk)).toEqual([]);
    expect((await simErrors(stack, /volumes/)).filter((r) => r.method === "DELETE").length).toBe(
      volumeDeleteErrors,
    );
  });

  it("attaches a snapshot by href with settings and a volume type (write-only, recorded in status.applied)", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "RecurringVolumeAttachment", "snap", {
      cloudHref: "/api/clouds/1",
      storageHref: "/api/clouds/1/volume_snapshots/1",
      runnableHref: "/api/server_arrays/1",
      device: "/dev/xvdj",
      settings: { delete_on_termination: "false" },
      volumeTypeHref: "/api/clouds/1/volume_types/2",
    });
    const o = await waitForCond(stack, ns, "RecurringVolumeAttachment", "snap", "Ready", "True");
    expect(o.status?.atProvider).toMatchObject({
      storageType: "VolumeSnapshot",
      runnableType: "ServerArray",
    });
    expect(o.status?.applied).toEqual({
      settings: { delete_on_termination: "false" },
      volumeTypeHref: "/api/clouds/1/volume_types/2",
    });
    // The service never shows the settings: atProvider echoes them as applied, and a resync,
    // which compares atProvider with what the service shows, finds no drift in them.
    expect(o.status?.atProvider?.settings).toEqual({ delete_on_termination: "false" });
    const resync = (await operator.resyncNow()).find((r) => r.kind === "RecurringVolumeAttachment")!;
    expect(resync).toMatchObject({ drifted: 0, missing: 0 });
    expect(resync.checked).toBeGreaterThanOrEqual(1);
    expect(attachments("/api/clouds/1/volume_snapshots/1")).toMatchObject([
      {
        device: "/dev/xvdj",
        runnable_href: "/api/server_arrays/1",
        settings: { delete_on_termination: "false" },
      },
    ]);
    await deleteAndWaitGone(stack, ns, "RecurringVolumeAttachment", "snap");
    expect(attachments("/api/clouds/1/volume_snapshots/1")).toEqual([]);
  });

  it("a volume that an attachment outside the operator references waits (DeletionBlocked) until it is gone", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "Volume", "shared", VOLUME);
    const href = (await waitForCond(stack, ns, "Volume", "shared", "Ready", "True")).status!.href!;
    const api = serviceApi(stack);
    const outside = await api.recurringVolumeAttachments.create("/api/clouds/1", {
      device: "/dev/xvde",
      runnable_href: "/api/servers/1",
      storage_href: href,
    });
    await remove(stack, ns, "Volume", "shared");
    await waitForCond(stack, ns, "Volume", "shared", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /recurring volume attachments still reference the volume/,
    });
    expect(volumeById(href)).toBeDefined();
    await api.recurringVolumeAttachments.destroy(outside);
    await api.close();
    await waitGone(stack, ns, "Volume", "shared");
    expect(volumeById(href)).toBeUndefined();
  });
});

describe("the storage and access sample of DESIGN.md", () => {
  it("applied children first converges, and deleted all at once goes away in dependency order", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "Permission", "user2-observer", {
      userHref: "/api/users/2",
      roleTitle: "observer",
    });
    await apply(stack, ns, "RecurringVolumeAttachment", "data-on-app-1", {
      cloudHref: "/api/clouds/1",
      storageRef: { name: "data" },
      runnableHref: "/api/servers/1",
      device: "/dev/xvdb",
    });
    await apply(stack, ns, "Volume", "data", {
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      size: 100,
      volumeType: { name: "standard" },
      deploymentRef: { name: "web" },
    });
    await apply(stack, ns, "Deployment", "web", {
      description: "Web tier",
      serverTagScope: "deployment",
      locked: false,
      inputs: { APP_ENV: "text:production" },
    });
    const all: [string, string][] = [
      ["Deployment", "web"],
      ["Volume", "data"],
      ["RecurringVolumeAttachment", "data-on-app-1"],
      ["Permission", "user2-observer"],
    ];
    for (const [kind, name] of all) await waitForCond(stack, ns, kind, name, "Ready", "True");
    const volume = (await get(stack, ns, "Volume", "data"))!.status!.href!;
    expect(attachments(volume)).toHaveLength(1);

    const refused = (await simErrors(stack, /volumes|deployments|permissions/)).filter(
      (r) => r.method === "DELETE",
    );
    for (const [kind, name] of all) await remove(stack, ns, kind, name);
    for (const [kind, name] of all) await waitGone(stack, ns, kind, name);
    expect(volumeById(volume)).toBeUndefined();
    expect(simRows<{ user_id: string }>(stack, "permissions").filter((p) => p.user_id === "2")).toEqual([]);
    // No deletion was attempted out of order (the service would have refused it).
    expect(
      (await simErrors(stack, /volumes|deployments|permissions/)).filter((r) => r.method === "DELETE"),
    ).toEqual(refused);
  });
});
