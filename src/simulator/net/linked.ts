/**
 * What the network and storage resources read from the objects SIM-CORE owns (clouds,
 * instances, servers, server arrays, volume types, snapshots). Kept in one place so that a
 * change in those records' shapes touches only this file.
 */
import { actionNotAllowed, resourceNotFound } from "../errors.ts";
import type { Store } from "../store.ts";
import type { Loose } from "./references.ts";

export type Capability =
  | "supports_networks"
  | "supports_route_tables"
  | "supports_volume_attachments"
  | "supports_volume_snapshots";

export function requireCloud(store: Store, cloudId: string): Loose {
  const cloud = store.collection<Loose>("clouds").get(cloudId);
  if (!cloud) throw resourceNotFound("Cloud", cloudId);
  return cloud;
}

/** Capabilities may be stored as `{name: value}` or as `[{name, value}]`; values `true`/`"true"`. */
export function cloudSupports(cloud: Loose, capability: Capability): boolean {
  const caps = cloud.capabilities;
  let value: unknown;
  if (Array.isArray(caps))
    value = (caps as Array<{ name?: unknown; value?: unknown }>).find((c) => c.name === capability)?.value;
  else if (caps && typeof caps === "object") value = (caps as Record<string, unknown>)[capability];
  else return true;
  return value === true || value === "true";
}

/** 422 ActionNotAllowed when the cloud lacks a capability the operation needs. */
export function requireCapability(cloud: Loose, capability: Capability, what: string): void {
  if (!cloudSupports(cloud, capability)) {
    throw actionNotAllowed(`Cloud ${cloud.id} does not support ${what} (${capability} is false)`);
  }
}

/** `open_stack_v3` and `OpenStack` read alike: lower case, no separators. */
function cloudType(cloud: Loose): string {
  return String(cloud.cloud_type ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** The "major public-cloud kind" of the spec (network cidr_block required, ip domain, encryption). */
export function isAwsLike(cloud: Loose): boolean {
  return /amazon|aws|ec2/.test(cloudType(cloud));
}

/** The "open-source stack cloud kind" (volumes without a datacenter, ip addresses need a network). */
export function isOpenStackLike(cloud: Loose): boolean {
  return cloudType(cloud).includes("openstack");
}

/** A next instance waits for a server's next launch; a current one is running now. */
export function isNextInstance(instance: Loose): boolean {
  if (typeof instance.next === "boolean") return instance.next;
  if (typeof instance.is_next === "boolean") return instance.is_next;
  return String(instance.state ?? "") === "inactive";
}

/** The href of a server's current instance, or null when it has none. */
export function currentInstanceHref(store: Store, server: Loose): string | null {
  if (typeof server.current_instance_href === "string") return server.current_instance_href;
  const id = server.current_instance_id;
  if (id === null || id === undefined) return null;
  const instance = store.collection<Loose>("instances").get(String(id));
  return instance ? `/api/clouds/${instance.cloud_id}/instances/${instance.id}` : null;
}

/** The size (gigabytes) a volume type states, or null; used as the default size of a volume. */
export function volumeTypeSize(volumeType: Loose): number | null {
  const size = volumeType.size;
  const n =
    typeof size === "number" ? size : typeof size === "string" && /^\d+$/.test(size) ? Number(size) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** A snapshot's size in gigabytes (1 when the record does not say). */
export function snapshotSize(snapshot: Loose): number {
  const size = snapshot.size;
  const n = typeof size === "number" ? size : Number(size);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** Volumes that snapshots were taken from, for the "dependent snapshots" destroy rule. */
export function snapshotParentVolumeHref(snapshot: Loose): string | null {
  const href = snapshot.parent_volume_href ?? snapshot.volume_href;
  return typeof href === "string" ? href : null;
}
