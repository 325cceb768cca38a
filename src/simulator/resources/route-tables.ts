/**
 * Route tables (beyond the spec's endpoint list; issue 2 item 10): read-only index and show.
 * Every network gets a default route table on create (networks.ts); they go away with it.
 */
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import {
  COLLECTIONS,
  type NetworkRecord,
  type RouteTableRecord,
  resourceUid,
  routeTableSchema,
} from "../net/records.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import type { Store } from "../store.ts";

export const routeTables = (store: Store) => store.collection<RouteTableRecord>(COLLECTIONS.routeTables);

export function routeTableHref(id: string): string {
  return hrefOf("routeTable", id);
}

/** Inserts the default route table of a network that is being created (id already known). */
export function insertDefaultRouteTable(
  store: Store,
  network: Pick<NetworkRecord, "id" | "cloud_id">,
  now: number,
) {
  const table = routeTables(store).insert({
    cloud_id: network.cloud_id,
    network_id: network.id,
    name: "default",
    description: `Default route table of network ${network.id}`,
    resource_uid: "",
    is_default: true,
    created_at: now,
    updated_at: now,
  });
  table.resource_uid = resourceUid("rtb", table.id);
  return table;
}

/**
 * The default route table of a network: the one it names, else (a seeded network that names
 * none) its route table marked `is_default`.
 */
export function defaultRouteTableId(store: Store, network: NetworkRecord): string | null {
  if (network.default_route_table_id !== null) return network.default_route_table_id;
  return routeTables(store).find((t) => t.network_id === network.id && t.is_default)?.id ?? null;
}

export function routeTableRepresentation(t: RouteTableRecord): Representation {
  const href = routeTableHref(t.id);
  return {
    name: t.name,
    description: t.description,
    resource_uid: t.resource_uid,
    is_default: t.is_default,
    created_at: formatTimestamp(t.created_at),
    updated_at: formatTimestamp(t.updated_at),
    links: [
      link("self", href),
      link("network", hrefOf("network", t.network_id)),
      link("cloud", hrefOf("cloud", t.cloud_id)),
      link("routes", `${href}/routes`),
    ],
  };
}

const FILTERS: FilterSpec<RouteTableRecord> = {
  network_href: { partial: false, get: (t) => hrefOf("network", t.network_id) },
};

export const routeTablesResource = defineResource({
  name: "route_tables",
  collections: { [COLLECTIONS.routeTables]: routeTableSchema },
  register(sim) {
    const read = access.anyOf("observer");
    sim.route({
      method: "GET",
      path: "/api/route_tables",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        const list = ctx.filter(routeTables(ctx.store).values(), FILTERS);
        return ctx.many("route_table", "route_tables", list.map(routeTableRepresentation));
      },
    });
    sim.route({
      method: "GET",
      path: "/api/route_tables/:id",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        return ctx.one(
          "route_table",
          routeTableRepresentation(routeTables(ctx.store).require(ctx.param("id"), "RouteTable")),
        );
      },
    });
  },
});
