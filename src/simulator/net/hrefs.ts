/**
 * Href shapes of the objects the network and storage resources point at, and their parsing.
 * A referenced href that does not have its kind's shape is a malformed parameter (400); one
 * that has the shape but names no object is a 422 ResourceNotFound (see references.ts).
 */

export interface HrefKind {
  /** Resource name used in `Couldn't find <label> with ID=<id>`. */
  readonly label: string;
  /** Store collection holding the objects. */
  readonly collection: string;
  readonly pattern: RegExp;
  /** Human shape for the error message. */
  readonly shape: string;
}

const kind = (label: string, collection: string, shape: string): HrefKind => {
  // `:cloud_id` and `:id` become capture groups; ids are opaque path segments.
  const source = shape.replace(/:[a-z_]+/g, "([^/;?#]+(?:;[^/?#]+)?)");
  return { label, collection, shape, pattern: new RegExp(`^${source}$`) };
};

export const HREF_KINDS = {
  cloud: kind("Cloud", "clouds", "/api/clouds/:id"),
  datacenter: kind("Datacenter", "datacenters", "/api/clouds/:cloud_id/datacenters/:id"),
  deployment: kind("Deployment", "deployments", "/api/deployments/:id"),
  image: kind("Image", "images", "/api/clouds/:cloud_id/images/:id"),
  instance: kind("Instance", "instances", "/api/clouds/:cloud_id/instances/:id"),
  ipAddress: kind("IpAddress", "ip_addresses", "/api/clouds/:cloud_id/ip_addresses/:id"),
  network: kind("Network", "networks", "/api/networks/:id"),
  networkGateway: kind("NetworkGateway", "network_gateways", "/api/network_gateways/:id"),
  networkInterface: kind(
    "NetworkInterface",
    "network_interfaces",
    "/api/clouds/:cloud_id/network_interfaces/:id",
  ),
  resourceGroup: kind("ResourceGroup", "resource_groups", "/api/resource_groups/:id"),
  routeTable: kind("RouteTable", "route_tables", "/api/route_tables/:id"),
  server: kind("Server", "servers", "/api/servers/:id"),
  serverArray: kind("ServerArray", "server_arrays", "/api/server_arrays/:id"),
  volume: kind("Volume", "volumes", "/api/clouds/:cloud_id/volumes/:id"),
  volumeSnapshot: kind("VolumeSnapshot", "volume_snapshots", "/api/clouds/:cloud_id/volume_snapshots/:id"),
  volumeType: kind("VolumeType", "volume_types", "/api/clouds/:cloud_id/volume_types/:id"),
} as const;

export type HrefKindName = keyof typeof HREF_KINDS;

export interface ParsedHref {
  readonly kind: HrefKindName;
  /** The object's own id (last segment). */
  readonly id: string;
  /** The cloud id of cloud-scoped kinds. */
  readonly cloudId?: string;
}

/** Reads `href` as one of `kinds` (first match wins), or undefined. Query strings are not hrefs. */
export function parseHref(href: string, ...kinds: HrefKindName[]): ParsedHref | undefined {
  const bare = href.replace(/\.(json|xml)$/, "");
  for (const name of kinds) {
    const match = HREF_KINDS[name].pattern.exec(bare);
    if (!match) continue;
    const ids = match.slice(1) as string[];
    return ids.length === 2 ? { kind: name, cloudId: ids[0], id: ids[1]! } : { kind: name, id: ids[0]! };
  }
  return undefined;
}

/** Fills a kind's shape: `hrefOf("volume", "1", "7")` is `/api/clouds/1/volumes/7`. */
export function hrefOf(name: HrefKindName, ...ids: string[]): string {
  let at = 0;
  return HREF_KINDS[name].shape.replace(/:[a-z_]+/g, () => ids[at++] ?? "");
}

/** "a cloud href (/api/clouds/:id)" or "a server href (...) or a server array href (...)". */
export function describeKinds(...kinds: HrefKindName[]): string {
  return kinds
    .map((name) => {
      const words = HREF_KINDS[name].label.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
      return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words} href (${HREF_KINDS[name].shape})`;
    })
    .join(" or ");
}
