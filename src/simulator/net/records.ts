/**
 * Stored shapes of the network and storage resources, as zod schemas: the resource modules
 * declare them so `--seed FILE` can hold these collections (defaults fill omitted fields), and
 * the record types are inferred from them. Fields are snake_case like the API; timestamps are
 * epoch milliseconds; references are ids where this module owns the target, hrefs otherwise.
 */
import * as z from "zod";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";

const id = seedId;
const ref = seedId;
const optionalRef = seedId.nullable().default(null);
const text = z.string().nullable().default(null);
const href = z.string().nullable().default(null);
const time = seedTimestamp.default(SEED_TIME_MS);

/** A record of a cloud's object: its id and cloud first, its timestamps last, nothing unknown. */
function cloudRecord<F extends z.ZodRawShape>(fields: F) {
  return z.object({ id, cloud_id: ref, ...fields, created_at: time, updated_at: time }).strict();
}

export const networkSchema = cloudRecord({
  name: text,
  description: text,
  cidr_block: text,
  instance_tenancy: z.enum(["default", "dedicated"]).default("default"),
  deployment_href: href,
  resource_uid: z.string().default(""),
  is_default: z.boolean().default(false),
  /** Filled by the networks module when a seed omits it (the table is created then). */
  default_route_table_id: optionalRef,
});
export type NetworkRecord = z.output<typeof networkSchema>;

export const routeTableSchema = cloudRecord({
  network_id: ref,
  name: z.string().default("default"),
  description: text,
  resource_uid: z.string().default(""),
  is_default: z.boolean().default(true),
});
export type RouteTableRecord = z.output<typeof routeTableSchema>;

export const subnetSchema = cloudRecord({
  network_id: ref,
  name: text,
  description: text,
  cidr_block: z.string(),
  datacenter_href: href,
  /** The explicitly associated route table; null means the network's default applies. */
  route_table_id: optionalRef,
  visibility: z.string().default("private"),
  resource_uid: z.string().default(""),
  is_default: z.boolean().default(false),
  /** The instance the subnet was created through (the instance path prefix and its index). */
  instance_href: href,
  /** The subnet reads `pending` until this instant, `available` from then on. */
  available_at: time,
});
export type SubnetRecord = z.output<typeof subnetSchema>;

export const networkGatewaySchema = cloudRecord({
  name: z.string(),
  description: text,
  type: z.enum(["vpn", "internet"]),
  network_id: optionalRef,
  state: z.string().default("available"),
  resource_uid: z.string().default(""),
});
export type NetworkGatewayRecord = z.output<typeof networkGatewaySchema>;

export const routeSchema = cloudRecord({
  route_table_id: ref,
  network_id: ref,
  description: text,
  destination_cidr_block: z.string(),
  next_hop_type: z.enum(["instance", "network_interface", "network_gateway", "ip_string", "url"]),
  next_hop_href: href,
  next_hop_ip: text,
  next_hop_url: text,
  instance_tags: z.array(z.string()).nullable().default(null),
  priority: z.number().int().nullable().default(null),
  state: z.string().default("available"),
  resource_uid: z.string().default(""),
});
export type RouteRecord = z.output<typeof routeSchema>;

export const volumeSchema = cloudRecord({
  name: z.string(),
  description: text,
  size: z.number().int().nonnegative().default(1),
  status: z.string().default("available"),
  resource_uid: z.string().default(""),
  datacenter_href: href,
  deployment_href: href,
  image_href: href,
  parent_volume_snapshot_href: href,
  placement_group_href: href,
  volume_type_href: href,
  encrypted: z.boolean().nullable().default(null),
  iops: z.number().int().nullable().default(null),
  allowed_instance_hrefs: z.array(z.string()).default([]),
  /** Set on volumes attached to a running instance (seeded): their status is `in-use`. */
  current_instance_href: href,
});
export type VolumeRecord = z.output<typeof volumeSchema>;

export const recurringVolumeAttachmentSchema = cloudRecord({
  name: z.string(),
  device: z.string(),
  device_id: z.string(),
  runnable_href: z.string(),
  runnable_type: z.enum(["Server", "ServerArray"]),
  storage_href: z.string(),
  storage_type: z.enum(["Volume", "VolumeSnapshot"]),
  settings: z.record(z.string(), z.string()).default({}),
  volume_type_href: href,
  size: z.number().int().nonnegative(),
  status: z.string().default("attached"),
});
export type RecurringVolumeAttachmentRecord = z.output<typeof recurringVolumeAttachmentSchema>;

export const ipAddressSchema = cloudRecord({
  name: z.string(),
  address: z.string(),
  domain: text,
  network_href: href,
  deployment_href: href,
});
export type IpAddressRecord = z.output<typeof ipAddressSchema>;

/** Not a cloudRecord: a binding is never updated, so it has no `updated_at`. */
export const ipAddressBindingSchema = z
  .object({
    id,
    cloud_id: ref,
    ip_address_id: optionalRef,
    instance_href: z.string(),
    recurring: z.boolean(),
    public_port: z.number().int().nullable().default(null),
    private_port: z.number().int().nullable().default(null),
    protocol: text,
    created_at: time,
  })
  .strict();
export type IpAddressBindingRecord = z.output<typeof ipAddressBindingSchema>;

export const resourceGroupSchema = cloudRecord({
  name: z.string(),
  description: text,
  deployment_href: href,
  state: z.enum(["available", "unavalable"]).default("available"),
  resource_uid: z.string().default(""),
});
export type ResourceGroupRecord = z.output<typeof resourceGroupSchema>;

/** Collection names in the store (what /__sim/state shows). */
export const COLLECTIONS = {
  networks: "networks",
  routeTables: "route_tables",
  subnets: "subnets",
  networkGateways: "network_gateways",
  routes: "routes",
  volumes: "volumes",
  recurringVolumeAttachments: "recurring_volume_attachments",
  ipAddresses: "ip_addresses",
  ipAddressBindings: "ip_address_bindings",
  resourceGroups: "resource_groups",
} as const;

/** A provider-style uid that is stable for a given id (tests can predict it). */
export function resourceUid(prefix: string, id: string): string {
  const numeric = Number(id);
  return `${prefix}-${Number.isInteger(numeric) ? numeric.toString(16).padStart(8, "0") : id}`;
}
