/**
 * Volumes (spec 4.5) under `/api/clouds/:cloud_id/volumes`. `size` is digits on create and
 * an integer in representations; views `default` and `extended` have the same shape. Destroy
 * is refused (422) while recurring volume attachments name the volume or while it is in use.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf, parseHref } from "../net/hrefs.ts";
import { isAwsLike, isOpenStackLike, requireCloud, snapshotSize, volumeTypeSize } from "../net/linked.ts";
import { listIds } from "../net/messages.ts";
import { checkAllowedInstances, checkVolumeCreate, type Members, text, volumeRules } from "../net/params.ts";
import {
  COLLECTIONS,
  type RecurringVolumeAttachmentRecord,
  resourceUid,
  type VolumeRecord,
  volumeSchema,
} from "../net/records.ts";
import { type Loose, type Resolved, resolveHref } from "../net/references.ts";
import { actions, formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { SEED_TIME_MS } from "../seed.ts";
import type { Store } from "../store.ts";
import { type VolumeTypeRecord, volumeTypeRepresentation } from "./clouds.ts";
import type { VolumeSnapshotRecord } from "./linked-records.ts";

export const volumes = (store: Store) => store.collection<VolumeRecord>(COLLECTIONS.volumes);

export const volumeHref = (v: Pick<VolumeRecord, "id" | "cloud_id">) => hrefOf("volume", v.cloud_id, v.id);

/**
 * `volumeType`: the record the volume's `volume_type_href` names, embedded as the
 * `volume_type` attribute (null when the volume has none). Links in the reference's order;
 * optional ones only when set. `iops` and the placement group are also kept in
 * `cloud_specific_attributes`, where clients of the simulator read them before issue 20.
 */
export function volumeRepresentation(
  v: VolumeRecord,
  volumeType: VolumeTypeRecord | null = null,
): Representation {
  const href = volumeHref(v);
  const links = [link("self", href), link("cloud", hrefOf("cloud", v.cloud_id))];
  const optional = (rel: string, target: string | null) => {
    if (target !== null) links.push(link(rel, target));
  };
  optional("datacenter", v.datacenter_href);
  optional("deployment", v.deployment_href);
  optional("volume_type", v.volume_type_href);
  links.push(link("volume_snapshots", `${href}/volume_snapshots`));
  optional("image", v.image_href);
  optional("parent_volume_snapshot", v.parent_volume_snapshot_href);
  if (v.current_instance_href !== null) {
    links.push(link("current_volume_attachment", `/api/clouds/${v.cloud_id}/volume_attachments/${v.id}`));
  }
  links.push(link("recurring_volume_attachments", `${href}/recurring_volume_attachments`));
  optional("placement_group", v.placement_group_href);
  const attributes: Record<string, unknown> = {};
  if (v.allowed_instance_hrefs.length) attributes.allowed_instance_hrefs = v.allowed_instance_hrefs;
  if (v.encrypted !== null) attributes.encrypted = v.encrypted;
  if (v.iops !== null) attributes.iops = v.iops;
  if (v.placement_group_href !== null) attributes.placement_group_href = v.placement_group_href;
  return {
    created_at: formatTimestamp(v.created_at),
    updated_at: formatTimestamp(v.updated_at),
    name: v.name,
    resource_uid: v.resource_uid,
    size: v.size,
    description: v.description,
    status: v.status,
    iops: v.iops,
    links,
    actions: actions(),
    volume_type: volumeType === null ? null : volumeTypeRepresentation(volumeType),
    // Placement groups are not modelled: the group is known only by the href the client gave.
    placement_group:
      v.placement_group_href === null ? null : { links: [link("self", v.placement_group_href)] },
    cloud_specific_attributes: Object.keys(attributes).length ? attributes : null,
  };
}

/** The volume with its volume type looked up in the store. */
export function renderVolume(store: Store, v: VolumeRecord): Representation {
  const id = v.volume_type_href === null ? undefined : parseHref(v.volume_type_href, "volumeType")?.id;
  const type = id === undefined ? undefined : store.collection<VolumeTypeRecord>("volume_types").get(id);
  return volumeRepresentation(v, type ?? null);
}

const FILTERS: FilterSpec<VolumeRecord> = {
  datacenter_href: { partial: false, get: (v) => v.datacenter_href },
  deployment_href: { partial: false, get: (v) => v.deployment_href },
  description: { partial: true, get: (v) => v.description },
  name: { partial: true, get: (v) => v.name },
  parent_volume_snapshot_href: { partial: false, get: (v) => v.parent_volume_snapshot_href },
  resource_uid: { partial: false, get: (v) => v.resource_uid },
};

/** A referenced object of this cloud: 422 when the href names another cloud's object. */
function inThisCloud(resolved: Resolved<Loose>, cloudId: string): Resolved<Loose> {
  if (resolved.cloudId !== undefined && resolved.cloudId !== cloudId) {
    const label = resolved.kind.replace(/([A-Z])/g, " $1").toLowerCase();
    throw actionNotAllowed(`The ${label} ${resolved.href} is not in cloud ${cloudId}`);
  }
  return resolved;
}

function load(ctx: RequestContext): VolumeRecord {
  const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
  const id = ctx.param("id");
  const volume = volumes(ctx.store).get(id);
  if (!volume || volume.cloud_id !== cloud.id) throw resourceNotFound("Volume", id);
  return volume;
}

/** Seeded: a volume attached to the running instance app-1, so `in-use` can be observed. */
export const seedVolumes = () => ({
  [COLLECTIONS.volumes]: [
    {
      id: "1",
      cloud_id: "1",
      name: "app-1-data",
      description: "Seeded volume attached to instance 1",
      size: 10,
      status: "in-use",
      resource_uid: "vol-00000001",
      datacenter_href: "/api/clouds/1/datacenters/1",
      deployment_href: "/api/deployments/1",
      image_href: null,
      parent_volume_snapshot_href: null,
      placement_group_href: null,
      volume_type_href: "/api/clouds/1/volume_types/1",
      encrypted: null,
      iops: null,
      allowed_instance_hrefs: [],
      current_instance_href: "/api/clouds/1/instances/1",
      created_at: SEED_TIME_MS,
      updated_at: SEED_TIME_MS,
    },
  ],
});

export const volumesResource = defineResource({
  name: "volumes",
  collections: { [COLLECTIONS.volumes]: volumeSchema },
  defaultSeed: seedVolumes,
  register(sim) {
    const read = access.anyOf("observer", "instance");
    const write = access.anyOf("actor", "instance");
    const VIEWS = ["default", "extended"] as const;
    const base = "/api/clouds/:cloud_id/volumes";

    sim.route({
      method: "GET",
      path: base,
      access: read,
      handler(ctx) {
        const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
        ctx.view(VIEWS);
        const list = ctx.filter(
          volumes(ctx.store).filter((v) => v.cloud_id === cloud.id),
          FILTERS,
        );
        return ctx.many(
          "volume",
          "volumes",
          list.map((v) => renderVolume(ctx.store, v)),
        );
      },
    });

    sim.route({
      method: "GET",
      path: `${base}/:id`,
      access: read,
      handler(ctx) {
        const volume = load(ctx);
        ctx.view(VIEWS);
        return ctx.one("volume", renderVolume(ctx.store, volume));
      },
    });

    sim.route({
      method: "POST",
      path: base,
      access: write,
      handler(ctx) {
        const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
        const { volume: fields } = ctx.validate<{ volume: Members }>({ volume: volumeRules.create });
        checkVolumeCreate(fields, {
          datacenterRequired: !isOpenStackLike(cloud),
          supportsEncryption: isAwsLike(cloud),
          supportsIops: isAwsLike(cloud),
        });
        const ref = (member: string, ...kinds: Parameters<typeof resolveHref>[3][]) => {
          const href = text(fields, member);
          return href === undefined
            ? undefined
            : inThisCloud(resolveHref(ctx.store, `volume[${member}]`, href, ...kinds), cloud.id);
        };
        const datacenter = ref("datacenter_href", "datacenter");
        const deployment = ref("deployment_href", "deployment");
        const image = ref("image_href", "image");
        const snapshot = ref("parent_volume_snapshot_href", "volumeSnapshot");
        const volumeType = ref("volume_type_href", "volumeType");
        const sizeText = text(fields, "size");
        let size: number;
        if (sizeText !== undefined) {
          size = Number(sizeText);
          if (snapshot && size < snapshotSize(snapshot.object)) {
            throw actionNotAllowed(
              `volume[size] ${size} is smaller than the ${snapshotSize(snapshot.object)} GB of snapshot ${snapshot.id}`,
            );
          }
        } else {
          size = snapshot
            ? snapshotSize(snapshot.object)
            : ((volumeType && volumeTypeSize(volumeType.object)) ?? 1);
        }
        const iops = text(fields, "iops");
        const encrypted = text(fields, "encrypted");

        const now = ctx.clock.now();
        const volume = volumes(ctx.store).insert({
          cloud_id: cloud.id,
          name: text(fields, "name")!,
          description: text(fields, "description") ?? null,
          size,
          status: "available",
          resource_uid: "",
          datacenter_href: datacenter?.href ?? null,
          deployment_href: deployment?.href ?? null,
          image_href: image?.href ?? null,
          parent_volume_snapshot_href: snapshot?.href ?? null,
          placement_group_href: text(fields, "placement_group_href") ?? null,
          volume_type_href: volumeType?.href ?? null,
          encrypted: encrypted === undefined ? null : encrypted === "true",
          iops: iops === undefined ? null : Number(iops),
          allowed_instance_hrefs: [],
          current_instance_href: null,
          created_at: now,
          updated_at: now,
        });
        volume.resource_uid = resourceUid("vol", volume.id);
        return ctx.created(volumeHref(volume));
      },
    });

    sim.route({
      method: "PUT",
      path: `${base}/:id`,
      access: write,
      handler(ctx) {
        const volume = load(ctx);
        const { volume: fields } = ctx.validate<{ volume: Members }>({ volume: volumeRules.update });
        checkAllowedInstances(fields);
        const allowed = (fields.allowed_instance_hrefs ?? {}) as { add?: string[]; remove?: string[] };
        for (const href of allowed.add ?? []) {
          inThisCloud(
            resolveHref(ctx.store, "volume[allowed_instance_hrefs][add]", href, "instance"),
            volume.cloud_id,
          );
        }

        if (fields.name !== undefined) volume.name = text(fields, "name")!;
        if (allowed.add || allowed.remove) {
          const removed = new Set(allowed.remove ?? []);
          const next = volume.allowed_instance_hrefs.filter((href) => !removed.has(href));
          for (const href of allowed.add ?? []) if (!next.includes(href)) next.push(href);
          volume.allowed_instance_hrefs = next;
        }
        volume.updated_at = ctx.clock.now();
        return ctx.noContent();
      },
    });

    sim.route({
      method: "DELETE",
      path: `${base}/:id`,
      access: write,
      handler(ctx) {
        const volume = load(ctx);
        const href = volumeHref(volume);
        const attachments = ctx.store
          .collection<RecurringVolumeAttachmentRecord>(COLLECTIONS.recurringVolumeAttachments)
          .filter((a) => a.storage_href === href);
        if (attachments.length) {
          throw actionNotAllowed(
            `Volume ${volume.id} still has recurring volume attachments ${listIds(attachments)}: destroy them first`,
          );
        }
        if (volume.status === "in-use") {
          throw actionNotAllowed(
            `Volume ${volume.id} is in use (attached to ${volume.current_instance_href})`,
          );
        }
        // The real service refuses to delete a volume whose snapshots depend on it.
        const snapshots = ctx.store
          .collection<VolumeSnapshotRecord>("volume_snapshots")
          .filter((snap) => snap.cloud_id === volume.cloud_id && snap.parent_volume_id === volume.id);
        if (snapshots.length) {
          throw actionNotAllowed(
            `Volume ${volume.id} still has dependent volume snapshots ${listIds(snapshots)}: delete them first`,
          );
        }
        volumes(ctx.store).delete(volume.id);
        return ctx.noContent();
      },
    });
  },
});
