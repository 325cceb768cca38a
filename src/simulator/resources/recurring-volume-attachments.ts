/**
 * Recurring volume attachments (spec 4.6) under three prefixes: `/api/clouds/:cloud_id`,
 * `.../volume_snapshots/:volume_snapshot_id` and `.../volumes/:volume_id`, each followed by
 * `/recurring_volume_attachments`. No update. The storage prefixes scope index and show to
 * their storage; a create under them must name that storage in storage_href.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { requireCapability, requireCloud, snapshotSize } from "../net/linked.ts";
import { checkSettings, type Members, recurringVolumeAttachmentRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type RecurringVolumeAttachmentRecord,
  recurringVolumeAttachmentSchema,
  type VolumeRecord,
} from "../net/records.ts";
import { type Loose, type Resolved, requireInCloud, resolveHref } from "../net/references.ts";
import { actions, formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";

export const recurringVolumeAttachments = (store: Store) =>
  store.collection<RecurringVolumeAttachmentRecord>(COLLECTIONS.recurringVolumeAttachments);

export const attachmentHref = (a: Pick<RecurringVolumeAttachmentRecord, "id" | "cloud_id">) =>
  `/api/clouds/${a.cloud_id}/recurring_volume_attachments/${a.id}`;

export function attachmentRepresentation(a: RecurringVolumeAttachmentRecord): Representation {
  return {
    created_at: formatTimestamp(a.created_at),
    updated_at: formatTimestamp(a.updated_at),
    name: a.name,
    runnable_type: a.runnable_type,
    storage_type: a.storage_type,
    status: a.status,
    device: a.device,
    device_id: a.device_id,
    size: `${a.size} GB`,
    links: [
      link("self", attachmentHref(a)),
      link("cloud", hrefOf("cloud", a.cloud_id)),
      link("runnable", a.runnable_href),
      link("storage", a.storage_href),
    ],
    actions: actions(),
  };
}

const FILTERS: FilterSpec<RecurringVolumeAttachmentRecord> = {
  runnable_href: { partial: false, get: (a) => a.runnable_href },
  storage_href: { partial: false, get: (a) => a.storage_href },
};

interface Scope {
  cloud: Loose;
  /** The storage of the volume or snapshot prefix. */
  storageHref: string | null;
}

function scopeOf(ctx: RequestContext): Scope {
  const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
  const volumeId = ctx.pathParams.volume_id;
  if (volumeId !== undefined) {
    requireInCloud(ctx.store, "volume", volumeId, cloud.id);
    return { cloud, storageHref: hrefOf("volume", cloud.id, volumeId) };
  }
  const snapshotId = ctx.pathParams.volume_snapshot_id;
  if (snapshotId !== undefined) {
    requireInCloud(ctx.store, "volumeSnapshot", snapshotId, cloud.id);
    return { cloud, storageHref: hrefOf("volumeSnapshot", cloud.id, snapshotId) };
  }
  return { cloud, storageHref: null };
}

const inScope = (a: RecurringVolumeAttachmentRecord, scope: Scope) =>
  a.cloud_id === scope.cloud.id && (scope.storageHref === null || a.storage_href === scope.storageHref);

const ATTACHMENTS: ScopedCollection<RecurringVolumeAttachmentRecord, Scope> = {
  collection: recurringVolumeAttachments,
  label: "RecurringVolumeAttachment",
  type: "recurring_volume_attachment",
  plural: "recurring_volume_attachments",
  filters: FILTERS,
  scope: scopeOf,
  inScope,
  render: (_ctx, a) => attachmentRepresentation(a),
};

function sameCloud(resolved: Resolved<Loose>, cloudId: string, what: string): void {
  const owner = resolved.cloudId ?? String(resolved.object.cloud_id ?? cloudId);
  if (owner !== cloudId)
    throw actionNotAllowed(`The ${what} ${resolved.href} is in cloud ${owner}, not cloud ${cloudId}`);
}

export const recurringVolumeAttachmentsResource = defineResource({
  name: "recurring_volume_attachments",
  collections: { [COLLECTIONS.recurringVolumeAttachments]: recurringVolumeAttachmentSchema },
  register(sim) {
    const read = access.anyOf("observer", "instance");
    const write = access.anyOf("actor", "instance");
    const prefixes = [
      "/api/clouds/:cloud_id",
      "/api/clouds/:cloud_id/volume_snapshots/:volume_snapshot_id",
      "/api/clouds/:cloud_id/volumes/:volume_id",
    ];

    for (const prefix of prefixes) {
      const base = `${prefix}/recurring_volume_attachments`;
      scopedRoutes(sim, base, ATTACHMENTS, {
        read,
        write,
        create(ctx) {
          const scope = scopeOf(ctx);
          const { recurring_volume_attachment: fields } = ctx.validate<{
            recurring_volume_attachment: Members;
          }>({
            recurring_volume_attachment: recurringVolumeAttachmentRules.create,
          });
          const settings = checkSettings(fields);
          const p = (m: string) => `recurring_volume_attachment[${m}]`;
          const cloudId = String(scope.cloud.id);
          const runnable = resolveHref(
            ctx.store,
            p("runnable_href"),
            text(fields, "runnable_href")!,
            "server",
            "serverArray",
          );
          sameCloud(runnable, cloudId, runnable.kind === "server" ? "server" : "server array");
          const storage = resolveHref(
            ctx.store,
            p("storage_href"),
            text(fields, "storage_href")!,
            "volume",
            "volumeSnapshot",
          );
          sameCloud(storage, cloudId, storage.kind === "volume" ? "volume" : "volume snapshot");
          if (scope.storageHref !== null && storage.href !== scope.storageHref) {
            throw actionNotAllowed(
              `${p("storage_href")} must name ${scope.storageHref}, the storage of the path`,
            );
          }
          const volumeTypeHref = text(fields, "volume_type_href");
          if (volumeTypeHref !== undefined) {
            sameCloud(
              resolveHref(ctx.store, p("volume_type_href"), volumeTypeHref, "volumeType"),
              cloudId,
              "volume type",
            );
          }
          requireCapability(scope.cloud, "supports_volume_attachments", "volume attachments");
          if (storage.kind === "volumeSnapshot") {
            requireCapability(scope.cloud, "supports_volume_snapshots", "volume snapshots");
          }

          const device = text(fields, "device")!;
          const size =
            storage.kind === "volume"
              ? (storage.object as unknown as VolumeRecord).size
              : snapshotSize(storage.object);
          const now = ctx.clock.now();
          const attachment = recurringVolumeAttachments(ctx.store).insert({
            cloud_id: cloudId,
            name: String(storage.object.name ?? `attachment of ${storage.href}`),
            device,
            device_id: device.replace(/^\/dev\//, ""),
            runnable_href: runnable.href,
            runnable_type: runnable.kind === "server" ? "Server" : "ServerArray",
            storage_href: storage.href,
            storage_type: storage.kind === "volume" ? "Volume" : "VolumeSnapshot",
            settings,
            volume_type_href: volumeTypeHref ?? null,
            size,
            status: "attached",
            created_at: now,
            updated_at: now,
          });
          return ctx.created(attachmentHref(attachment));
        },
      });
    }
  },
});
