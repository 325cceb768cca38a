/**
 * Subnets (spec 4.8) under `/api/clouds/:cloud_id/subnets` and
 * `/api/clouds/:cloud_id/instances/:instance_id/subnets`. A subnet reads `pending` for
 * SUBNET_PENDING_MS after create, then `available`. Its CIDR must lie inside the network's
 * and not overlap a sibling's (422). An empty route_table_href on update resets it to the
 * network's default route table.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { cidrContains, cidrOverlaps, parseCidr } from "../net/cidr.ts";
import { hrefOf } from "../net/hrefs.ts";
import { requireCapability, requireCloud } from "../net/linked.ts";
import { type Members, subnetRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type NetworkRecord,
  type RouteTableRecord,
  resourceUid,
  type SubnetRecord,
  subnetSchema,
} from "../net/records.ts";
import { requireInCloud, resolveHref } from "../net/references.ts";
import { link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { findInScope, type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";
import { networks } from "./networks.ts";
import { defaultRouteTableId, routeTableHref } from "./route-tables.ts";

/** How long a new subnet reads `pending` (simulator clock). */
export const SUBNET_PENDING_MS = 1000;

export const subnets = (store: Store) => store.collection<SubnetRecord>(COLLECTIONS.subnets);

export const subnetHref = (s: Pick<SubnetRecord, "id" | "cloud_id">) =>
  `/api/clouds/${s.cloud_id}/subnets/${s.id}`;

export function subnetState(s: SubnetRecord, now: number): string {
  return now < s.available_at ? "pending" : "available";
}

/** `defaultTable`: the id of the network's default route table (see defaultRouteTableId). */
export function subnetRepresentation(
  s: SubnetRecord,
  defaultTable: string | null,
  now: number,
): Representation {
  const links = [link("self", subnetHref(s))];
  if (s.datacenter_href !== null) links.push(link("datacenter", s.datacenter_href));
  links.push(link("network", hrefOf("network", s.network_id)));
  if (s.route_table_id !== null) links.push(link("route_table", routeTableHref(s.route_table_id)));
  const effective = s.route_table_id ?? defaultTable;
  if (effective !== null) links.push(link("effective_route_table", routeTableHref(effective)));
  return {
    visibility: s.visibility,
    resource_uid: s.resource_uid,
    name: s.name,
    description: s.description,
    state: subnetState(s, now),
    cidr_block: s.cidr_block,
    is_default: s.is_default,
    links,
  };
}

const FILTERS: FilterSpec<SubnetRecord> = {
  datacenter_href: { partial: false, get: (s) => s.datacenter_href },
  instance_href: { partial: false, get: (s) => s.instance_href },
  name: { partial: true, get: (s) => s.name },
  network_href: { partial: false, get: (s) => hrefOf("network", s.network_id) },
  resource_uid: { partial: false, get: (s) => s.resource_uid },
  visibility: { partial: false, get: (s) => s.visibility },
};

/** The subnet's CIDR must lie in the network's (when it has one) and miss every sibling's. */
function checkCidr(store: Store, network: NetworkRecord, cidr: string, except?: string): void {
  const block = parseCidr(cidr)!;
  const outer = network.cidr_block === null ? undefined : parseCidr(network.cidr_block);
  if (outer && !cidrContains(outer, block)) {
    throw actionNotAllowed(
      `subnet[cidr_block] ${cidr} is not inside the CIDR block ${network.cidr_block} of network ${network.id}`,
    );
  }
  const clash = subnets(store).find(
    (s) =>
      s.network_id === network.id && s.id !== except && cidrOverlaps(parseCidr(s.cidr_block) ?? block, block),
  );
  if (clash)
    throw actionNotAllowed(`subnet[cidr_block] ${cidr} overlaps subnet ${clash.id} (${clash.cidr_block})`);
}

interface Scope {
  cloudId: string;
  /** Set under the instance prefix. */
  instanceHref: string | null;
}

function scopeOf(ctx: RequestContext): Scope {
  const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
  const instanceId = ctx.pathParams.instance_id;
  if (instanceId === undefined) return { cloudId: cloud.id, instanceHref: null };
  requireInCloud(ctx.store, "instance", instanceId, cloud.id);
  return { cloudId: cloud.id, instanceHref: hrefOf("instance", cloud.id, instanceId) };
}

function inScope(s: SubnetRecord, scope: Scope): boolean {
  return (
    s.cloud_id === scope.cloudId && (scope.instanceHref === null || s.instance_href === scope.instanceHref)
  );
}

const SUBNETS: ScopedCollection<SubnetRecord, Scope> = {
  collection: subnets,
  label: "Subnet",
  type: "subnet",
  plural: "subnets",
  filters: FILTERS,
  scope: scopeOf,
  inScope,
  render(ctx, s) {
    const network = networks(ctx.store).get(s.network_id);
    return subnetRepresentation(s, network ? defaultRouteTableId(ctx.store, network) : null, ctx.clock.now());
  },
};

export const subnetsResource = defineResource({
  name: "subnets",
  collections: { [COLLECTIONS.subnets]: subnetSchema },
  register(sim) {
    for (const prefix of ["/api/clouds/:cloud_id", "/api/clouds/:cloud_id/instances/:instance_id"]) {
      scopedRoutes(sim, `${prefix}/subnets`, SUBNETS, {
        read: access.anyOf("observer"),
        write: access.anyOf("security_manager"),
        create(ctx) {
          const scope = scopeOf(ctx);
          const { subnet: fields } = ctx.validate<{ subnet: Members }>({ subnet: subnetRules.create });
          const cloud = requireCloud(ctx.store, scope.cloudId);
          requireCapability(cloud, "supports_networks", "networks");
          const network = resolveHref<NetworkRecord>(
            ctx.store,
            "subnet[network_href]",
            text(fields, "network_href")!,
            "network",
          ).object;
          if (network.cloud_id !== scope.cloudId) {
            throw actionNotAllowed(
              `Network ${network.id} is in cloud ${network.cloud_id}, not cloud ${scope.cloudId}`,
            );
          }
          const datacenter = text(fields, "datacenter_href");
          if (datacenter !== undefined) {
            const dc = resolveHref(ctx.store, "subnet[datacenter_href]", datacenter, "datacenter");
            if (dc.cloudId !== scope.cloudId) {
              throw actionNotAllowed(
                `Datacenter ${dc.id} is in cloud ${dc.cloudId}, not cloud ${scope.cloudId}`,
              );
            }
          }
          const cidr = text(fields, "cidr_block")!;
          checkCidr(ctx.store, network, cidr);

          const now = ctx.clock.now();
          const subnet = subnets(ctx.store).insert({
            cloud_id: scope.cloudId,
            network_id: network.id,
            name: text(fields, "name") ?? null,
            description: text(fields, "description") ?? null,
            cidr_block: cidr,
            datacenter_href: datacenter ?? null,
            route_table_id: null,
            visibility: "private",
            resource_uid: "",
            is_default: false,
            instance_href: scope.instanceHref,
            available_at: now + SUBNET_PENDING_MS,
            created_at: now,
            updated_at: now,
          });
          subnet.resource_uid = resourceUid("subnet", subnet.id);
          return ctx.created(subnetHref(subnet));
        },

        update(ctx) {
          const scope = scopeOf(ctx);
          const { subnet: fields } = ctx.validate<{ subnet: Members }>({ subnet: subnetRules.update });
          const subnet = findInScope(ctx, SUBNETS, scope);
          const network = networks(ctx.store).require(subnet.network_id, "Network");
          const cidr = text(fields, "cidr_block");
          if (cidr !== undefined) checkCidr(ctx.store, network, cidr, subnet.id);
          const tableHref = text(fields, "route_table_href");
          let tableId: string | null | undefined;
          if (tableHref === "") tableId = null;
          else if (tableHref !== undefined) {
            const table = resolveHref<RouteTableRecord>(
              ctx.store,
              "subnet[route_table_href]",
              tableHref,
              "routeTable",
            ).object;
            if (table.network_id !== subnet.network_id) {
              throw actionNotAllowed(
                `Route table ${table.id} belongs to network ${table.network_id}, not network ${subnet.network_id}`,
              );
            }
            tableId = table.id;
          }

          if (cidr !== undefined) subnet.cidr_block = cidr;
          if (fields.name !== undefined) subnet.name = text(fields, "name")!;
          if (fields.description !== undefined) subnet.description = text(fields, "description")!;
          if (tableId !== undefined) subnet.route_table_id = tableId;
          subnet.updated_at = ctx.clock.now();
          return ctx.noContent();
        },
      });
    }
  },
});
