import * as z from "zod";
import { type CelRule, exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { byName } from "../volume/schema.ts";

/** `/dev/xvd` plus one of b c e f g h i j (spec 4.6). */
export const DEVICE = /^\/dev\/xvd[bcefghij]$/;
export const DEVICE_RULE = "^/dev/xvd[bcefghij]$";

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
      .describe("Free key/value string options, e.g. a delete-on-termination flag."),
    volumeTypeHref: href("a volume type (some clouds need it when attaching a snapshot)").optional(),
  },
  attachmentRules,
  "Desired state of the recurring volume attachment. The service cannot update an attachment: " +
    "any change replaces it (delete, then create).",
);

export type AttachmentSpec = z.output<typeof attachmentSpecSchema>;
