import * as z from "zod";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { cloudHref } from "./clouds.ts";
import { storedInputSchema } from "./deployments.ts";

/**
 * Stored shapes of the objects the spec only links to (servers, server arrays, instances,
 * server templates, stored scripts, and per cloud datacenters, images and volume snapshots),
 * as zod schemas: seed files hold these collections, defaults fill omitted fields.
 */

const ref = z.union([z.string().min(1), z.number().int()]).transform(String);
const optionalRef = ref.nullable().default(null);
const time = seedTimestamp.default(SEED_TIME_MS);

export const datacenterSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    description: z.string().default(""),
  })
  .strict();
export const imageSchema = datacenterSchema;
export const volumeSnapshotSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    description: z.string().default(""),
    state: z.string().default("available"),
    size: z.number().int().default(1),
    /** The volume the snapshot was taken of (its `parent_volume`, listed under the volume). */
    parent_volume_id: optionalRef,
    deployment_id: optionalRef,
    visibility: z.enum(["private", "public"]).default("private"),
    created_at: time,
    updated_at: time,
  })
  .strict();
export const instanceSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    description: z.string().default(""),
    resource_uid: z.string().default(""),
    /** `operational` for a running (current) instance, `inactive` for a next instance. */
    state: z.string().default("operational"),
    /** A next instance: the one launched next time (IP bindings to it are recurring). */
    is_next: z.boolean().default(false),
    os_platform: z.enum(["linux", "windows"]).default("linux"),
    server_id: optionalRef,
    server_array_id: optionalRef,
    server_template_id: optionalRef,
    multi_cloud_image_id: optionalRef,
    deployment_id: optionalRef,
    datacenter_id: optionalRef,
    image_id: optionalRef,
    instance_type_id: optionalRef,
    ssh_key_id: optionalRef,
    user_data: z.string().nullable().default(null),
    inputs: z.array(storedInputSchema).default([]),
    created_at: time,
    updated_at: time,
  })
  .strict();
export const serverTemplateSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().default(""),
    revision: z.number().int().nonnegative().default(0),
    inputs: z.array(storedInputSchema).default([]),
    /** A deployment created through the API starts with this template's inputs (see deployments.ts). */
    for_new_deployments: z.boolean().default(false),
  })
  .strict();
export const serverSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().default(""),
    cloud_id: ref,
    deployment_id: optionalRef,
    server_template_id: optionalRef,
    current_instance_id: optionalRef,
    next_instance_id: optionalRef,
    created_at: time,
    updated_at: time,
  })
  .strict();
export const serverArraySchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().default(""),
    cloud_id: ref,
    deployment_id: optionalRef,
    server_template_id: optionalRef,
    next_instance_id: optionalRef,
    state: z.enum(["enabled", "disabled"]).default("enabled"),
    array_type: z.enum(["alert", "queue"]).default("alert"),
    min_count: z.number().int().nonnegative().default(1),
    max_count: z.number().int().nonnegative().default(4),
  })
  .strict();
export const storedScriptSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().default(""),
    source: z.string().default(""),
    packages: z.string().nullable().default(null),
    revision: z.number().int().nonnegative().default(0),
    inputs: z.array(storedInputSchema).default([]),
    created_at: time,
    updated_at: time,
  })
  .strict();

export type DatacenterRecord = z.output<typeof datacenterSchema>;
export type ImageRecord = z.output<typeof imageSchema>;
export type VolumeSnapshotRecord = z.output<typeof volumeSnapshotSchema>;
export type InstanceRecord = z.output<typeof instanceSchema>;
export type ServerTemplateRecord = z.output<typeof serverTemplateSchema>;
export type ServerRecord = z.output<typeof serverSchema>;
export type ServerArrayRecord = z.output<typeof serverArraySchema>;
export type StoredScriptRecord = z.output<typeof storedScriptSchema>;

export const hrefs = {
  datacenter: (cloudId: string, id: string) => `${cloudHref(cloudId)}/datacenters/${id}`,
  image: (cloudId: string, id: string) => `${cloudHref(cloudId)}/images/${id}`,
  instance: (cloudId: string, id: string) => `${cloudHref(cloudId)}/instances/${id}`,
  instanceType: (cloudId: string, id: string) => `${cloudHref(cloudId)}/instance_types/${id}`,
  sshKey: (cloudId: string, id: string) => `${cloudHref(cloudId)}/ssh_keys/${id}`,
  volume: (cloudId: string, id: string) => `${cloudHref(cloudId)}/volumes/${id}`,
  volumeSnapshot: (cloudId: string, id: string) => `${cloudHref(cloudId)}/volume_snapshots/${id}`,
  server: (id: string) => `/api/servers/${id}`,
  serverArray: (id: string) => `/api/server_arrays/${id}`,
  serverTemplate: (id: string) => `/api/server_templates/${id}`,
  multiCloudImage: (id: string) => `/api/multi_cloud_images/${id}`,
  storedScript: (id: string) => `/api/stored_scripts/${id}`,
  deployment: (id: string) => `/api/deployments/${id}`,
};
