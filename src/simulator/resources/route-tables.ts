/**
 * Route tables (`/api/route_tables`, from the reference data): index and show (views
 * `default` and `extended`, which embeds the table's routes), create (name, cloud, network),
 * update (name, description) and destroy. Every network gets a default route table on create
 * (networks.ts); they go away with it. Destroying a table that something still uses is refused.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { requireCapability } from "../net/linked.ts";
import { listIds } from "../net/messages.ts";
import { type Members, routeTableRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type NetworkRecord,
  type RouteRecord,
  type RouteTableRecord,
  resourceUid,
  routeTableSchema,
  type SubnetRecord,
} from "../net/records.ts";
import { resolveHref } from "../net/references.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { ACCOUNT_WIDE, type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";
import { routeRepresentation, routes } from "./routes.ts";

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
 * none) its route table marked `is_default` (an internal mark: the real media type has no
 * such attribute, so it is not sent).
 */
export function defaultRouteTableId(store: Store, network: NetworkRecord): string | null {
  if (network.default_route_table_id !== null) return network.default_route_table_id;
  return routeTables(store).find((t) => t.network_id === network.id && t.is_default)?.id ?? null;
}

/** `tableRoutes`: the table's routes for the `extended` view, null for `default`. */
export function routeTableRepresentation(
  t: RouteTableRecord,
  tableRoutes: RouteRecord[] | null,
): Representation {
  const href = routeTableHref(t.id);
  const rep: Representation = {
    resource_uid: t.resource_uid,
    name: t.name,
    description: t.description,
    links: [
      link("self", href),
      link("cloud", hrefOf("cloud", t.cloud_id)),
      link("network", hrefOf("network", t.network_id)),
      link("routes", `${href}/routes`),
    ],
    actions: [],
    created_at: formatTimestamp(t.created_at),
    updated_at: formatTimestamp(t.updated_at),
  };
  if (tableRoutes !== null) rep.routes = tableRoutes.map(routeRepresentation);
  return rep;
}

/** What keeps a route table from being destroyed, described for the 422 message. */
export function routeTableHolders(store: Store, table: RouteTableRecord): string[] {
  const out: string[] = [];
  const network = store.collection<NetworkRecord>(COLLECTIONS.networks).get(table.network_id);
  if (network && defaultRouteTableId(store, network) === table.id) {
    out.push(`network ${network.id} uses it as its default route table`);
  }
  const subnets = store
    .collection<SubnetRecord>(COLLECTIONS.subnets)
    .filter((s) => s.route_table_id === table.id);
  if (subnets.length) out.push(`subnets ${listIds(subnets)} are associated with it`);
  const held = routes(store).filter((r) => r.route_table_id === table.id);
  if (held.length) out.push(`it still holds routes ${listIds(held)}`);
  return out;
}

const FILTERS: FilterSpec<RouteTableRecord> = {
  network_href: { partial: false, get: (t) => hrefOf("network", t.network_id) },
};
const VIEWS = ["default", "extended"] as const;

const TABLES: ScopedCollection<RouteTableRecord, null> = {
  ...ACCOUNT_WIDE,
  collection: routeTables,
  label: "RouteTable",
  type: "route_table",
  plural: "route_tables",
  filters: FILTERS,
  views: VIEWS,
  render(ctx: RequestContext, t: RouteTableRecord) {
    const extended = ctx.view(VIEWS) === "extended";
    return routeTableRepresentation(
      t,
      extended ? routes(ctx.store).filter((r) => r.route_table_id === t.id) : null,
    );
  },
};

export const routeTablesResource = defineResource({
  name: "route_tables",
  collections: { [COLLECTIONS.routeTables]: routeTableSchema },
  register(sim) {
    scopedRoutes(sim, "/api/route_tables", TABLES, {
      read: access.anyOf("observer"),
      write: access.anyOf("security_manager"),
      create(ctx) {
        const { route_table: fields } = ctx.validate<{ route_table: Members }>({
          route_table: routeTableRules.create,
        });
        const cloud = resolveHref(
          ctx.store,
          "route_table[cloud_href]",
          text(fields, "cloud_href")!,
          "cloud",
        ).object;
        requireCapability(cloud, "supports_route_tables", "route tables");
        const network = resolveHref<NetworkRecord>(
          ctx.store,
          "route_table[network_href]",
          text(fields, "network_href")!,
          "network",
        ).object;
        if (network.cloud_id !== cloud.id) {
          throw actionNotAllowed(
            `Network ${network.id} is in cloud ${network.cloud_id}, not cloud ${cloud.id}`,
          );
        }
        const now = ctx.clock.now();
        const table = routeTables(ctx.store).insert({
          cloud_id: cloud.id,
          network_id: network.id,
          name: text(fields, "name")!,
          description: text(fields, "description") ?? null,
          resource_uid: "",
          is_default: false,
          created_at: now,
          updated_at: now,
        });
        table.resource_uid = resourceUid("rtb", table.id);
        return ctx.created(routeTableHref(table.id));
      },

      update(ctx) {
        const { route_table: fields } = ctx.validate<{ route_table: Members }>({
          route_table: routeTableRules.update,
        });
        const table = routeTables(ctx.store).require(ctx.param("id"), "RouteTable");
        if (fields.name !== undefined) table.name = text(fields, "name")!;
        if (fields.description !== undefined) table.description = text(fields, "description")!;
        table.updated_at = ctx.clock.now();
        return ctx.noContent();
      },

      // As a cloud refuses it: a table in use stays until what holds it lets go.
      destroy(ctx) {
        const table = routeTables(ctx.store).require(ctx.param("id"), "RouteTable");
        const holders = routeTableHolders(ctx.store, table);
        if (holders.length) {
          throw actionNotAllowed(`Route table ${table.id} is in use: ${holders.join("; ")}`);
        }
        routeTables(ctx.store).delete(table.id);
        return ctx.noContent();
      },
    });
  },
});
