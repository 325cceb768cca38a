import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { type CelRule, exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows } from "../shared/table-kind.ts";
import { byName } from "../volume/schema.ts";

export type AttachmentClient = Pick<ServiceApi, "recurringVolumeAttachments" | "clouds">;

/** `/dev/xvd` plus one of b c e f g h i j (spec 4.6). */
export const DEVICE = /^\/dev\/xvd[bcefghij]$/;
export const DEVICE_RULE = "^/dev/xvd[bcefghij]$";

/**
 * Spec field, API parameter (spec 4.6) and member of the real recurring_volume_attachment media
 * type. The service has no update: every row is create-only and a change replaces the attachment.
 * Settings and volume type are never shown (write-only: the runtime diffs them against
 * status.applied; atProvider echoes the settings); the cloud is the collection's, never a parameter.
 */
export const attachmentRows: TableRow<AttachmentClient>[] = [
  tableRows.cloud({ link: "cloud", empty: "unshown" }),
  { spec: "device", param: "device", attribute: "device", write: "create", empty: "unshown" },
  rows.createOnlyLink("runnableHref", "runnable", "runnable_href"),
  {
    ...rows.createOnlyLink("storageHref", "storage", "storage_href"),
    ref: { field: "storageRef", kind: "Volume" },
    required: true,
  },
  {
    spec: "settings",
    param: "settings",
    write: "create",
    toParam: (v) => (Object.keys(v as object).length > 0 ? v : undefined),
    // Never shown by the service: atProvider echoes them as applied, so a user can read them back.
    echo: true,
  },
  { spec: "volumeTypeHref", param: "volume_type_href", write: "create" },
  ...rows.read({
    status: "status",
    size: "size",
    runnableType: "runnable_type",
    storageType: "storage_type",
  }),
];

/** Every spec field: the service has no update, so a change of any of them replaces the attachment. */
export const ATTACHMENT_FIELDS = [
  "cloudHref",
  "cloud",
  "device",
  "runnableHref",
  "storageRef",
  "storageHref",
  "settings",
  "volumeTypeHref",
] as const;

export const attachmentRules: CelRule[] = [
  { ...exactlyOne(["cloudHref", "cloud"]), fieldPath: ".cloudHref" },
  { ...exactlyOne(["storageRef", "storageHref"]), fieldPath: ".storageRef" },
  {
    rule: `self.device.matches('${DEVICE_RULE}')`,
    message: "device must be /dev/xvd followed by one of b, c, e, f, g, h, i, j",
    fieldPath: ".device",
    reason: "FieldValueInvalid",
  },
];

export const attachmentSpecSchema = managedSpec(
  {
    cloudHref: href("the cloud of the attachment").optional(),
    cloud: byName("cloud").optional(),
    device: z
      .string()
      .min(1)
      .max(64)
      .describe(
        "Device path: /dev/xvd plus one of b c e f g h i j. Note: the service API 1.5 marks this parameter " +
          "as going to be deprecated.",
      ),
    runnableHref: href("the server or server array whose next instances get the volume"),
    storageRef: ref("Volume", "A Volume custom resource to attach; waits until it is Ready.").optional(),
    storageHref: href("a volume or volume snapshot to attach").optional(),
    settings: z
      .record(z.string().min(1).describe("Option name."), z.string().describe("Option value."))
      .optional()
      .describe(
        "Options sent with the create as recurring_volume_attachment[settings][<key>]: free key/value " +
          "strings. The service API takes any key (it names none; its one example is a delete-on-termination " +
          "flag, whose key it does not give) and requires each value to be a string. It never shows them " +
          "back: status.atProvider.settings echoes them as last applied (absent on an attachment adopted by " +
          "href). A change replaces the attachment.",
      ),
    volumeTypeHref: href("a volume type (some clouds need it when attaching a snapshot)").optional(),
  },
  attachmentRules,
  "Desired state of the recurring volume attachment. The service cannot update an attachment: " +
    "any change replaces it (delete, then create).",
);

export type AttachmentSpec = z.output<typeof attachmentSpecSchema>;
