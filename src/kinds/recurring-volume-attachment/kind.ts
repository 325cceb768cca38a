import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { perParent, tableKind } from "../shared/table-kind.ts";
import {
  ATTACHMENT_FIELDS,
  type AttachmentClient,
  attachmentRows,
  attachmentSpecSchema,
  DEVICE,
} from "./schema.ts";

/**
 * A recurring volume attachment (spec 4.6): a table kind, listed per cloud. The service cannot
 * update one, so any change replaces it (delete, then create).
 */
export const recurringVolumeAttachmentKind = tableKind({
  kind: "RecurringVolumeAttachment",
  plural: "recurringvolumeattachments",
  singular: "recurringvolumeattachment",
  shortNames: ["svcrva"],
  description:
    "A recurring volume attachment: a volume or volume snapshot attached to a server or server array the next " +
    "time an instance is launched. The service cannot update it, so any change replaces it (delete, then create).",
  schema: attachmentSpecSchema,
  printerColumns: [
    { name: "Device", type: "string", jsonPath: ".spec.device", description: "Device path" },
    {
      name: "Status",
      type: "string",
      jsonPath: ".status.atProvider.status",
      description: "Status the service reports",
    },
  ],
  rows: attachmentRows,
  resource: (client: AttachmentClient) => perParent(client.recurringVolumeAttachments),
  perCloud: "cloudHref",
  lookupBy: ["runnableHref", "storageHref"],
  matchBy: ["device"],
  immutable: ATTACHMENT_FIELDS,
  replace: "deleteBeforeCreate",
  deleteRefused: "stall",
  validate(spec) {
    // The CRD rule says the same; this covers a spec that got past admission.
    if (!DEVICE.test(spec.device))
      throw new InvalidSpecError("device", "must be /dev/xvd followed by one of b, c, e, f, g, h, i, j");
  },
});
