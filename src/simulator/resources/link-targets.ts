import * as z from "zod";
import type { RequestContext } from "../context.ts";
import { resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { COLLECTIONS, type VolumeRecord } from "../net/records.ts";
import { link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { seedId } from "../seed.ts";
import type { Store } from "../store.ts";
import { type CloudRecord, cloudHref } from "./clouds.ts";
import { volumeSnapshotRepresentation } from "./linked.ts";
import { hrefs, type InstanceRecord, type VolumeSnapshotRecord } from "./linked-records.ts";

/**
 * Beyond the spec: read-only targets of links the spec names but does not detail, so every
 * link a representation carries resolves. Minimal representations (name and links):
 * - cloud rels `security_groups` and `ssh_keys` (index, show; seeded one of each per cloud),
 * - cloud rel `volume_attachments` and volume rel `current_volume_attachment`: one attachment
 *   per volume attached to a running instance, with the volume's id (index, show),
 * - volume rel `volume_snapshots`: the cloud's snapshots taken of that volume (index, show),
 * - instance rel `volume_attachments`: the current attachments of the instance's volumes,
 * - route rel `next_hop` of a `network_interface` hop: each instance has one network interface,
 *   `eni-<instance id>` (index, show; not stored, it follows the instances),
 * - rel `alerts` of deployments, servers, server arrays and instances: the simulator raises no
 *   alerts, so each collection is empty,
 * - instance rel `multi_cloud_image`: the image a server template's instances boot, one per
 *   template and of its id (show only; the simulator serves no multi-cloud image index).
 */

const cloudObjectSchema = z
  .object({
    id: seedId,
    cloud_id: z.union([z.string().min(1), z.number().int()]).transform(String),
    name: z.string().min(1),
    resource_uid: z.string().default(""),
  })
  .strict();
type CloudObjectRecord = z.output<typeof cloudObjectSchema>;

const multiCloudImageSchema = z
  .object({ id: seedId, name: z.string().min(1), description: z.string().default("") })
  .strict();
type MultiCloudImageRecord = z.output<typeof multiCloudImageSchema>;

const cloudObjectFilters: FilterSpec<CloudObjectRecord> = {
  name: { partial: true, get: (o) => o.name },
  resource_uid: { partial: false, get: (o) => o.resource_uid },
};

const seedCloudObjects = (prefix: string, name: string): CloudObjectRecord[] =>
  ["1", "2"].map((cloudId) => ({
    id: cloudId,
    cloud_id: cloudId,
    name,
    resource_uid: `${prefix}-000${cloudId}`,
  }));

/** The cloud of `:cloud_id` (422 when unknown). */
const cloudOf = (ctx: RequestContext): CloudRecord =>
  ctx.store.collection<CloudRecord>("clouds").require(ctx.param("cloud_id"), "Cloud");

/** A volume attached to a running instance holds one current attachment, of the volume's id. */
const attachmentOf = (v: VolumeRecord): Representation => ({
  name: `${v.name} attachment`,
  state: "attached",
  links: [
    link("self", `${cloudHref(v.cloud_id)}/volume_attachments/${v.id}`),
    link("cloud", cloudHref(v.cloud_id)),
    link("volume", `${cloudHref(v.cloud_id)}/volumes/${v.id}`),
    link("instance", v.current_instance_href!),
  ],
});

/** The instance owning network interface `eni-<instance id>` of the cloud, if any. */
export function networkInterfaceOwner(store: Store, cloudId: string, id: string): InstanceRecord | undefined {
  const match = /^eni-(.+)$/.exec(id);
  const instance = match ? store.collection<InstanceRecord>("instances").get(match[1]!) : undefined;
  return instance && instance.cloud_id === cloudId ? instance : undefined;
}

const networkInterfaceOf = (i: InstanceRecord): Representation => ({
  name: `${i.name} eth0`,
  resource_uid: `eni-${i.resource_uid || i.id}`,
  links: [
    link("self", `${cloudHref(i.cloud_id)}/network_interfaces/eni-${i.id}`),
    link("cloud", cloudHref(i.cloud_id)),
    link("instance", hrefs.instance(i.cloud_id, i.id)),
  ],
});

export const linkTargetsResource = defineResource({
  name: "link-targets",
  collections: {
    security_groups: cloudObjectSchema,
    ssh_keys: cloudObjectSchema,
    multi_cloud_images: multiCloudImageSchema,
  },
  defaultSeed: () => ({
    security_groups: seedCloudObjects("sg", "default"),
    ssh_keys: seedCloudObjects("key", "default"),
    multi_cloud_images: [
      { id: "1", name: "Base Linux image", description: "Ubuntu 24.04 on every cloud" },
      { id: "2", name: "App Server image", description: "RHEL 9 on every cloud" },
    ],
  }),
  register(sim) {
    const observer = access.anyOf("observer");
    const observerOrInstance = access.anyOf("observer", "instance");

    for (const [plural, type, label] of [
      ["security_groups", "security_group", "SecurityGroup"],
      ["ssh_keys", "ssh_key", "SshKey"],
    ] as const) {
      const represent = (o: CloudObjectRecord): Representation => ({
        name: o.name,
        resource_uid: o.resource_uid,
        links: [
          link("self", `${cloudHref(o.cloud_id)}/${plural}/${o.id}`),
          link("cloud", cloudHref(o.cloud_id)),
        ],
      });
      sim.route({
        method: "GET",
        path: `/api/clouds/:cloud_id/${plural}`,
        access: observer,
        handler(ctx) {
          ctx.view(["default"]);
          const cloud = cloudOf(ctx);
          const list = ctx.store.collection<CloudObjectRecord>(plural).filter((o) => o.cloud_id === cloud.id);
          return ctx.many(type, plural, ctx.filter(list, cloudObjectFilters).map(represent));
        },
      });
      sim.route({
        method: "GET",
        path: `/api/clouds/:cloud_id/${plural}/:id`,
        access: observer,
        handler(ctx) {
          ctx.view(["default"]);
          const cloud = cloudOf(ctx);
          const found = ctx.store.collection<CloudObjectRecord>(plural).get(ctx.param("id"));
          if (!found || found.cloud_id !== cloud.id) throw resourceNotFound(label, ctx.param("id"));
          return ctx.one(type, represent(found));
        },
      });
    }

    const attached = (ctx: RequestContext, cloud: CloudRecord) =>
      ctx.store
        .collection<VolumeRecord>(COLLECTIONS.volumes)
        .filter((v) => v.cloud_id === cloud.id && v.current_instance_href !== null);
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volume_attachments",
      access: observerOrInstance,
      handler(ctx) {
        ctx.view(["default"]);
        const list = ctx.filter(attached(ctx, cloudOf(ctx)), {});
        return ctx.many("volume_attachment", "volume_attachments", list.map(attachmentOf));
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volume_attachments/:id",
      access: observerOrInstance,
      handler(ctx) {
        ctx.view(["default"]);
        const found = attached(ctx, cloudOf(ctx)).find((v) => v.id === ctx.param("id"));
        if (!found) throw resourceNotFound("VolumeAttachment", ctx.param("id"));
        return ctx.one("volume_attachment", attachmentOf(found));
      },
    });

    // A volume's snapshots (its `volume_snapshots` link), the reference's nested routes.
    const snapshotsOf = (ctx: RequestContext) => {
      const cloud = cloudOf(ctx);
      const volume = ctx.store.collection<VolumeRecord>(COLLECTIONS.volumes).get(ctx.param("volume_id"));
      if (!volume || volume.cloud_id !== cloud.id) throw resourceNotFound("Volume", ctx.param("volume_id"));
      return ctx.store
        .collection<VolumeSnapshotRecord>("volume_snapshots")
        .filter((s) => s.cloud_id === cloud.id && s.parent_volume_id === volume.id);
    };
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volumes/:volume_id/volume_snapshots",
      access: observerOrInstance,
      handler(ctx) {
        const list = snapshotsOf(ctx);
        ctx.view(["default"]);
        const found = ctx.filter(list, {
          name: { partial: true, get: (s: VolumeSnapshotRecord) => s.name },
          resource_uid: { partial: false, get: (s: VolumeSnapshotRecord) => s.resource_uid },
          state: { partial: false, get: (s: VolumeSnapshotRecord) => s.state },
        });
        return ctx.many("volume_snapshot", "volume_snapshots", found.map(volumeSnapshotRepresentation));
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volumes/:volume_id/volume_snapshots/:id",
      access: observerOrInstance,
      handler(ctx) {
        const found = snapshotsOf(ctx).find((s) => s.id === ctx.param("id"));
        ctx.view(["default"]);
        if (!found) throw resourceNotFound("VolumeSnapshot", ctx.param("id"));
        return ctx.one("volume_snapshot", volumeSnapshotRepresentation(found));
      },
    });

    // An instance's volume attachments (its `volume_attachments` link).
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/instances/:instance_id/volume_attachments",
      access: observerOrInstance,
      handler(ctx) {
        ctx.view(["default"]);
        const cloud = cloudOf(ctx);
        const instance = ctx.store.collection<InstanceRecord>("instances").get(ctx.param("instance_id"));
        if (!instance || instance.cloud_id !== cloud.id)
          throw resourceNotFound("Instance", ctx.param("instance_id"));
        const href = hrefs.instance(cloud.id, instance.id);
        const list = ctx.filter(
          attached(ctx, cloud).filter((v) => v.current_instance_href === href),
          {},
        );
        return ctx.many("volume_attachment", "volume_attachments", list.map(attachmentOf));
      },
    });

    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/network_interfaces",
      access: observerOrInstance,
      handler(ctx) {
        ctx.view(["default"]);
        const cloud = cloudOf(ctx);
        const list = ctx.store.collection<InstanceRecord>("instances").filter((i) => i.cloud_id === cloud.id);
        return ctx.many(
          "network_interface",
          "network_interfaces",
          ctx.filter(list, {}).map(networkInterfaceOf),
        );
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/network_interfaces/:id",
      access: observerOrInstance,
      handler(ctx) {
        ctx.view(["default"]);
        const owner = networkInterfaceOwner(ctx.store, cloudOf(ctx).id, ctx.param("id"));
        if (!owner) throw resourceNotFound("NetworkInterface", ctx.param("id"));
        return ctx.one("network_interface", networkInterfaceOf(owner));
      },
    });

    sim.route({
      method: "GET",
      path: "/api/multi_cloud_images/:id",
      access: observer,
      handler(ctx) {
        ctx.view(["default"]);
        const image = ctx.store
          .collection<MultiCloudImageRecord>("multi_cloud_images")
          .require(ctx.param("id"), "MultiCloudImage");
        return ctx.one("multi_cloud_image", {
          name: image.name,
          description: image.description,
          links: [link("self", hrefs.multiCloudImage(image.id))],
        });
      },
    });

    // The `alerts` of deployments, servers, server arrays and instances: the simulator raises
    // no alerts, so each is an empty collection (an unknown owner is a 422).
    const alertOwners: Array<[path: string, owner: (ctx: RequestContext) => unknown]> = [
      [
        "/api/deployments/:id/alerts",
        (ctx) => ctx.store.collection("deployments").require(ctx.param("id"), "Deployment"),
      ],
      [
        "/api/servers/:id/alerts",
        (ctx) => ctx.store.collection("servers").require(ctx.param("id"), "Server"),
      ],
      [
        "/api/server_arrays/:id/alerts",
        (ctx) => ctx.store.collection("server_arrays").require(ctx.param("id"), "ServerArray"),
      ],
      [
        "/api/clouds/:cloud_id/instances/:instance_id/alerts",
        (ctx) => {
          const cloud = cloudOf(ctx);
          const instance = ctx.store.collection<InstanceRecord>("instances").get(ctx.param("instance_id"));
          if (!instance || instance.cloud_id !== cloud.id)
            throw resourceNotFound("Instance", ctx.param("instance_id"));
        },
      ],
    ];
    for (const [path, owner] of alertOwners) {
      sim.route({
        method: "GET",
        path,
        access: observer,
        handler(ctx) {
          ctx.view(["default"]);
          owner(ctx);
          return ctx.many("alert", "alerts", ctx.filter([], {}));
        },
      });
    }
  },
});
