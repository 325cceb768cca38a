import * as z from "zod";
import type { RequestContext } from "../context.ts";
import { resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { seedCloudCatalog } from "../seed-data.ts";

/** Clouds, instance types and volume types (spec 4.19). Read-only. */

export const CAPABILITY_NAMES = [
  "supports_networks",
  "supports_route_tables",
  "supports_volume_attachments",
  "supports_volume_snapshots",
] as const;

export const cloudSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    display_name: z.string().default(""),
    description: z.string().default(""),
    cloud_type: z.string().default("amazon"),
    capabilities: z
      .object(
        Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, z.boolean().default(true)])) as Record<
          (typeof CAPABILITY_NAMES)[number],
          z.ZodDefault<z.ZodBoolean>
        >,
      )
      .strict()
      .default({
        supports_networks: true,
        supports_route_tables: true,
        supports_volume_attachments: true,
        supports_volume_snapshots: true,
      }),
  })
  .strict();
export type CloudRecord = z.output<typeof cloudSchema>;

const cloudRef = z.union([z.string().min(1), z.number().int()]).transform(String);

export const instanceTypeSchema = z
  .object({
    id: seedId,
    cloud_id: cloudRef,
    resource_uid: z.string().default(""),
    name: z.string().min(1),
    description: z.string().default(""),
    memory: z.string().nullable().default(null),
    cpu_speed: z.string().nullable().default(null),
    cpu_count: z.number().int().nullable().default(null),
    cpu_architecture: z.string().nullable().default(null),
    local_disks: z.number().int().nullable().default(null),
    local_disk_size: z.number().int().nullable().default(null),
    deleted: z.boolean().default(false),
  })
  .strict();
export type InstanceTypeRecord = z.output<typeof instanceTypeSchema>;

export const volumeTypeSchema = z
  .object({
    id: seedId,
    cloud_id: cloudRef,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    /** Gigabytes, as the string the service sends (`"5"`). */
    size: z.union([z.string(), z.number()]).transform(String).default("1"),
    description: z.string().default(""),
    created_at: seedTimestamp.default(SEED_TIME_MS),
    updated_at: seedTimestamp.default(SEED_TIME_MS),
  })
  .strict();
export type VolumeTypeRecord = z.output<typeof volumeTypeSchema>;

export const cloudHref = (id: string) => `/api/clouds/${id}`;

/** A cloud's collections, in the reference's order (that of a recorded real response). */
const CLOUD_LINK_RELS = [
  "datacenters",
  "instance_types",
  "security_groups",
  "instances",
  "ssh_keys",
  "images",
  "ip_addresses",
  "ip_address_bindings",
  "volume_attachments",
  "recurring_volume_attachments",
  "volume_snapshots",
  "volume_types",
  "volumes",
  "subnets",
];

export function cloudRepresentation(c: CloudRecord, view: "default" | "extended"): Representation {
  const href = cloudHref(c.id);
  const rep: Representation = {
    name: c.name,
    display_name: c.display_name,
    description: c.description,
    cloud_type: c.cloud_type,
    links: [link("self", href), ...CLOUD_LINK_RELS.map((rel) => link(rel, `${href}/${rel}`))],
  };
  if (view === "extended") {
    rep.capabilities = CAPABILITY_NAMES.map((name) => ({ name, value: String(c.capabilities[name]) }));
  }
  return rep;
}

export function instanceTypeRepresentation(t: InstanceTypeRecord): Representation {
  return {
    resource_uid: t.resource_uid,
    name: t.name,
    description: t.description,
    memory: t.memory,
    cpu_speed: t.cpu_speed,
    cpu_count: t.cpu_count,
    cpu_architecture: t.cpu_architecture,
    local_disks: t.local_disks,
    local_disk_size: t.local_disk_size,
    links: [
      link("self", `${cloudHref(t.cloud_id)}/instance_types/${t.id}`),
      link("cloud", cloudHref(t.cloud_id)),
    ],
    actions: [],
  };
}

export function volumeTypeRepresentation(t: VolumeTypeRecord): Representation {
  return {
    name: t.name,
    created_at: formatTimestamp(t.created_at),
    updated_at: formatTimestamp(t.updated_at),
    resource_uid: t.resource_uid,
    size: t.size,
    description: t.description,
    links: [
      link("self", `${cloudHref(t.cloud_id)}/volume_types/${t.id}`),
      link("cloud", cloudHref(t.cloud_id)),
    ],
    actions: [],
  };
}

const CLOUD_FILTERS: FilterSpec<CloudRecord> = {
  cloud_type: { partial: false, get: (c) => c.cloud_type },
  description: { partial: true, get: (c) => c.description },
  name: { partial: true, get: (c) => c.name },
};

const INSTANCE_TYPE_FILTERS: FilterSpec<InstanceTypeRecord> = {
  cpu_architecture: { partial: true, get: (t) => t.cpu_architecture },
  description: { partial: true, get: (t) => t.description },
  name: { partial: true, get: (t) => t.name },
  resource_uid: { partial: false, get: (t) => t.resource_uid },
};

const VOLUME_TYPE_FILTERS: FilterSpec<VolumeTypeRecord> = {
  name: { partial: true, get: (t) => t.name },
  resource_uid: { partial: false, get: (t) => t.resource_uid },
};

/** The cloud of a nested path (`:cloud_id`), or 422 `Couldn't find Cloud with ID=<id>`. */
export function requireCloud(ctx: RequestContext): CloudRecord {
  return ctx.store.collection<CloudRecord>("clouds").require(ctx.param("cloud_id"), "Cloud");
}

export const cloudsResource = defineResource({
  name: "clouds",
  collections: { clouds: cloudSchema, instance_types: instanceTypeSchema, volume_types: volumeTypeSchema },
  defaultSeed: () => {
    const { clouds, instance_types, volume_types } = seedCloudCatalog();
    return { clouds, instance_types, volume_types };
  },
  register(sim) {
    const clouds = () => sim.store.collection<CloudRecord>("clouds");
    const instanceTypes = () => sim.store.collection<InstanceTypeRecord>("instance_types");
    const volumeTypes = () => sim.store.collection<VolumeTypeRecord>("volume_types");
    const cloudAccess = access.anyOf("observer", "instance", "infrastructure");
    // Not shown for instance types: the same as volume types (observer or instance).
    const typeAccess = access.anyOf("observer", "instance");

    sim.route({
      method: "GET",
      path: "/api/clouds",
      access: cloudAccess,
      handler(ctx) {
        const view = ctx.view(["default", "extended"]);
        const list = ctx.filter(clouds().values(), CLOUD_FILTERS);
        return ctx.many(
          "cloud",
          "clouds",
          list.map((c) => cloudRepresentation(c, view)),
        );
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:id",
      access: cloudAccess,
      handler(ctx) {
        const view = ctx.view(["default", "extended"]);
        return ctx.one("cloud", cloudRepresentation(clouds().require(ctx.param("id"), "Cloud"), view));
      },
    });

    const withDeleted = (ctx: RequestContext): boolean =>
      ctx.validate<{ with_deleted?: string }>({
        with_deleted: { type: "String", values: ["true", "false"], blank: false },
      }).with_deleted === "true";

    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/instance_types",
      access: typeAccess,
      handler(ctx) {
        ctx.view(["default"]);
        const includeDeleted = withDeleted(ctx);
        const cloud = requireCloud(ctx);
        const inCloud = instanceTypes().filter(
          (t) => t.cloud_id === cloud.id && (includeDeleted || !t.deleted),
        );
        return ctx.many(
          "instance_type",
          "instance_types",
          ctx.filter(inCloud, INSTANCE_TYPE_FILTERS).map(instanceTypeRepresentation),
        );
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/instance_types/:id",
      access: typeAccess,
      handler(ctx) {
        ctx.view(["default"]);
        withDeleted(ctx);
        const cloud = requireCloud(ctx);
        const type = instanceTypes().get(ctx.param("id"));
        // A deleted instance type stays readable by id (objects still reference it).
        if (!type || type.cloud_id !== cloud.id) throw resourceNotFound("InstanceType", ctx.param("id"));
        return ctx.one("instance_type", instanceTypeRepresentation(type));
      },
    });

    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volume_types",
      access: typeAccess,
      handler(ctx) {
        ctx.view(["default"]);
        const cloud = requireCloud(ctx);
        const inCloud = volumeTypes().filter((t) => t.cloud_id === cloud.id);
        return ctx.many(
          "volume_type",
          "volume_types",
          ctx.filter(inCloud, VOLUME_TYPE_FILTERS).map(volumeTypeRepresentation),
        );
      },
    });
    sim.route({
      method: "GET",
      path: "/api/clouds/:cloud_id/volume_types/:id",
      access: typeAccess,
      handler(ctx) {
        ctx.view(["default"]);
        const cloud = requireCloud(ctx);
        const type = volumeTypes().get(ctx.param("id"));
        if (!type || type.cloud_id !== cloud.id) throw resourceNotFound("VolumeType", ctx.param("id"));
        return ctx.one("volume_type", volumeTypeRepresentation(type));
      },
    });
  },
});
