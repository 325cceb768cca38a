import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const recurringVolumeAttachmentSchema = z.looseObject({
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  name: z.string().nullish(),
  runnable_type: z.string().nullish(),
  storage_type: z.string().nullish(),
  status: z.string().nullish(),
  device: z.string().nullish(),
  device_id: z.string().nullish(),
  /** Size text such as `1 GB`. */
  size: z.string().nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type RecurringVolumeAttachment = z.output<typeof recurringVolumeAttachmentSchema>;

export interface RecurringVolumeAttachmentCreate {
  /** `/dev/xvd` plus one of b c e f g h i j. */
  device: string;
  runnable_href: string;
  storage_href: string;
  settings?: Record<string, string>;
  volume_type_href?: string;
}

/**
 * Under a cloud, a volume or a volume snapshot (`parentHref` is any of the three):
 * `<parentHref>/recurring_volume_attachments`.
 */
export function recurringVolumeAttachmentsApi(client: ApiClient) {
  const ops = resourceOps(client, "recurring_volume_attachment", recurringVolumeAttachmentSchema);
  const collection = (parentHref: string) => `${parentHref}/recurring_volume_attachments`;
  return {
    index: (parentHref: string, options?: IndexOptions) => ops.index(collection(parentHref), options),
    show: ops.show,
    create: (parentHref: string, params: RecurringVolumeAttachmentCreate) =>
      ops.create(collection(parentHref), params, {
        filter: { runnable_href: params.runnable_href, storage_href: params.storage_href },
        match: () => true,
      }),
    destroy: ops.destroy,
  };
}
