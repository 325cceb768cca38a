import { z } from "zod";
import type { ApiClient } from "../client.ts";
import {
  createIn,
  destroyAt,
  findHrefs,
  type IndexOptions,
  listAll,
  type ShowOptions,
  showOne,
  updateAt,
} from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const volumeSchema = z.looseObject({
  created_at: timestampSchema.nullable(),
  updated_at: timestampSchema.nullish(),
  name: z.string(),
  resource_uid: z.string().nullish(),
  size: z.number().nullish(),
  description: z.string().nullish(),
  status: z.string().nullish(),
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
  return {
    index: (cloudHref: string, options?: IndexOptions) =>
      listAll(client, `${cloudHref}/volumes`, volumeSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, volumeSchema, options),
    create: (cloudHref: string, params: VolumeCreate) => {
      const path = `${cloudHref}/volumes`;
      return createIn(
        client,
        path,
        { volume: params },
        {
          find: () =>
            findHrefs(client, path, volumeSchema, { name: params.name }, (v) => v.name === params.name),
        },
      );
    },
    update: (href: string, params: VolumeUpdate) => updateAt(client, href, { volume: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
