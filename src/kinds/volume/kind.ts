import { selfHref } from "../../api/index.ts";
import { DeletionBlockedError, Reason, WaitError } from "../../runtime/sdk/index.ts";
import { perParent, tableKind } from "../shared/table-kind.ts";
import { VOLUME_CREATE_ONLY, type VolumeClient, volumeRows, volumeSpecSchema } from "./schema.ts";

/** Statuses of a volume attached (or being attached) to an instance: it is not deleted then. */
const ATTACHED = new Set(["in-use", "attaching"]);

/** Statuses in which a volume is not usable yet (real-service notes: failures show `failed`). */
const NOT_READY = new Set(["creating", "pending", "failed", "error"]);

export const Message = {
  attached: (hrefs: string[]) =>
    `recurring volume attachments still reference the volume (${hrefs.join(", ")}); delete them first`,
  inUse: (href: string, status: string) =>
    `volume ${href} is ${status} (attached to an instance); waiting for it to be detached before deleting it`,
} as const;

/**
 * A volume (spec 4.5): a table kind, listed per cloud. Only its name and allowed instances
 * change (the update sends exactly the hrefs to add and to remove); it is never deleted and
 * re-created to apply a change, and it is deleted only once no recurring attachment references it
 * and it is not in use.
 */
export function createVolumeKind(options: { deletionRetryMs?: number } = {}) {
  const retryMs = options.deletionRetryMs ?? 10_000;
  return tableKind({
    kind: "Volume",
    plural: "volumes",
    singular: "volume",
    shortNames: ["svcvol"],
    description:
      "A volume (block storage) of the cloud-management service. Only its name and allowed instances can change; " +
      "it is never deleted and re-created to apply a change, and it is deleted only once no recurring attachment " +
      "references it and it is not in use.",
    schema: volumeSpecSchema,
    printerColumns: [
      { name: "Size", type: "integer", jsonPath: ".status.atProvider.size", description: "Size in GB" },
      {
        name: "Status",
        type: "string",
        jsonPath: ".status.atProvider.status",
        description: "Status the service reports",
      },
    ],
    rows: volumeRows,
    resource: (client: VolumeClient) => perParent(client.volumes),
    perCloud: "cloudHref",
    // Names are not unique: a candidate must also show every create-only value the spec sets.
    lookupBy: ["name"],
    // The CRD's rules, in their order.
    immutable: VOLUME_CREATE_ONLY,
    deleteRetryMs: retryMs,
    notReady: (o) =>
      typeof o.status === "string" && NOT_READY.has(o.status)
        ? `the service reports the volume as ${o.status}`
        : undefined,
    overrides: {
      // The service refuses (422) both; waiting says why instead of failing on every attempt.
      async delete(base, client, href, observed) {
        const attachments = (await client.recurringVolumeAttachments.index(href)).map((a) => selfHref(a));
        if (attachments.length > 0) throw new DeletionBlockedError(Message.attached(attachments), retryMs);
        const status = observed.status;
        if (typeof status === "string" && ATTACHED.has(status))
          throw new WaitError(Reason.Deleting, Message.inUse(href, status), retryMs);
        // Refused meanwhile (an attachment made since, snapshots): the table's delete waits for it.
        await base.delete(client, href, observed);
      },
    },
  });
}

export const volumeKind = createVolumeKind();
