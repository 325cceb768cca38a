import * as z from "zod";
import type { ApiClient } from "../client.ts";
import { type IndexOptions, listAll, type ShowOptions, showOne } from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const CLOUDS = "/api/clouds";

export const cloudSchema = z.looseObject({
  name: z.string(),
  display_name: z.string().nullish(),
  description: z.string().nullish(),
  cloud_type: z.string().nullish(),
  links: linksSchema,
  /** Only in view `extended`; values are the strings `true` / `false`. */
  capabilities: z.array(z.looseObject({ name: z.string(), value: z.string() })).optional(),
});
export type Cloud = z.output<typeof cloudSchema>;

export const instanceTypeSchema = z.looseObject({
  resource_uid: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  memory: z.unknown().optional(),
  cpu_speed: z.unknown().optional(),
  cpu_count: z.number().nullish(),
  cpu_architecture: z.string().nullish(),
  local_disks: z.number().nullish(),
  local_disk_size: z.number().nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type InstanceType = z.output<typeof instanceTypeSchema>;

export const volumeTypeSchema = z.looseObject({
  name: z.string(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  resource_uid: z.string().nullish(),
  /** Gigabytes, as a string. */
  size: z.string().nullish(),
  description: z.string().nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type VolumeType = z.output<typeof volumeTypeSchema>;

/** `capabilities` as booleans (`supports_networks` -> true), from a cloud shown with view `extended`. */
export function cloudCapabilities(cloud: Cloud): Record<string, boolean> {
  return Object.fromEntries((cloud.capabilities ?? []).map((c) => [c.name, c.value === "true"]));
}

/** Read-only: clouds, and the instance types and volume types of a cloud. */
export function cloudsApi(client: ApiClient) {
  return {
    index: (options?: IndexOptions) => listAll(client, CLOUDS, cloudSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, cloudSchema, options),
    instanceTypes: (cloudHref: string, options?: IndexOptions & { withDeleted?: boolean }) =>
      listAll(client, `${cloudHref}/instance_types`, instanceTypeSchema, {
        ...options,
        params: {
          ...options?.params,
          with_deleted: options?.withDeleted === undefined ? undefined : String(options.withDeleted),
        },
      }),
    instanceType: (href: string) => showOne(client, href, instanceTypeSchema),
    volumeTypes: (cloudHref: string, options?: IndexOptions) =>
      listAll(client, `${cloudHref}/volume_types`, volumeTypeSchema, options),
    volumeType: (href: string) => showOne(client, href, volumeTypeSchema),
  };
}
