import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const volumeSchema = z.looseObject({
  created_at: timestampSchema.nullable(),
  updated_at: timestampSchema.nullish(),
  name: z.string(),
  resource_uid: z.string().nullish(),
  size: z.number().nullish(),
  description: z.string().nullish(),
  status: z.string().nullish(),
  /** Declared by the real volume media type; the seed spec does not say its JSON type. */
  iops: z.union([z.number(), z.string()]).nullish(),
  cloud_specific_attributes: z.record(z.string(), z.unknown()).nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type Volume = z.output<typeof volumeSchema>;

export interface VolumeCreate {
  name: string;
  datacenter_href?: string;
  deployment_href?: string;
  description?: string;
  encrypted?: boolean;
  image_href?: string;
  iops?: number;
  parent_volume_snapshot_href?: string;
  placement_group_href?: string;
  /** Gigabytes (sent as a string, as the spec asks). */
  size?: number;
  volume_type_href?: string;
}

export interface VolumeUpdate {
  name?: string;
  allowed_instance_hrefs?: { add?: string[]; remove?: string[] };
}

/** Volumes of a cloud: `/api/clouds/:id/volumes`. */
export function volumesApi(client: ApiClient) {
  const ops = resourceOps(client, "volume", volumeSchema);
  return {
    index: (cloudHref: string, options?: IndexOptions) => ops.index(`${cloudHref}/volumes`, options),
    show: ops.show,
    create: (cloudHref: string, params: VolumeCreate) =>
      ops.create(`${cloudHref}/volumes`, params, {
        filter: { name: params.name },
        match: (v) => v.name === params.name,
      }),
    update: (href: string, params: VolumeUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
