/**
 * Routes (spec 4.4), nested `/api/route_tables/:route_table_id/routes` and flat `/api/routes`.
 * The self href is the nested form; both forms address the same route. Next-hop hrefs are
 * resolved by type: instances and network gateways must exist in the route table's cloud
 * (422 otherwise); network interfaces are not modelled, so only their href shape is checked.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { requireCapability, requireCloud } from "../net/linked.ts";
import { checkNextHop, type Members, routeRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type NetworkGatewayRecord,
  type RouteRecord,
  type RouteTableRecord,
  resourceUid,
  routeSchema,
} from "../net/records.ts";
import { parseParamHref, resolveHref } from "../net/references.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { findInScope, type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";
import { networkInterfaceOwner } from "./link-targets.ts";

export const routes = (store: Store) => store.collection<RouteRecord>(COLLECTIONS.routes);

// Route tables are read here without importing their module (which renders routes itself).
const routeTables = (store: Store) => store.collection<RouteTableRecord>(COLLECTIONS.routeTables);
const routeTableHref = (id: string) => hrefOf("routeTable", id);

export const routeHref = (r: Pick<RouteRecord, "id" | "route_table_id">) =>
  `${routeTableHref(r.route_table_id)}/routes/${r.id}`;

/**
 * The real route's shape: the next hop's href is only its `next_hop` link, and the route's
 * network is its route table's (the record keeps `next_hop_href` and `network_id` for the
 * filters and the network's destroy rule, but they are not sent).
 */
export function routeRepresentation(r: RouteRecord): Representation {
  const links = [link("self", routeHref(r)), link("route_table", routeTableHref(r.route_table_id))];
  if (r.next_hop_href !== null) links.push(link("next_hop", r.next_hop_href));
  links.push(link("cloud", hrefOf("cloud", r.cloud_id)));
  const attributes: Record<string, unknown> = {};
  if (r.instance_tags !== null) attributes.instance_tags = r.instance_tags;
  if (r.priority !== null) attributes.priority = r.priority;
  return {
    description: r.description,
    destination_cidr_block: r.destination_cidr_block,
    next_hop_type: r.next_hop_type,
    next_hop_ip: r.next_hop_ip,
    next_hop_url: r.next_hop_url,
    state: r.state,
    resource_uid: r.resource_uid,
    created_at: formatTimestamp(r.created_at),
    updated_at: formatTimestamp(r.updated_at),
    links,
    cloud_specific_attributes: Object.keys(attributes).length ? attributes : null,
  };
}

const FILTERS: FilterSpec<RouteRecord> = {
  cloud_href: { partial: false, get: (r) => hrefOf("cloud", r.cloud_id) },
  description: { partial: true, get: (r) => r.description },
  network_href: { partial: false, get: (r) => hrefOf("network", r.network_id) },
  next_hop_href: { partial: false, get: (r) => r.next_hop_href },
  next_hop_ip: { partial: true, get: (r) => r.next_hop_ip },
  next_hop_type: { partial: false, get: (r) => r.next_hop_type },
  next_hop_url: { partial: true, get: (r) => r.next_hop_url },
  route_table_href: { partial: false, get: (r) => routeTableHref(r.route_table_id) },
  state: { partial: false, get: (r) => r.state },
};

/** The route table of the nested path form (422 when unknown), or null on the flat form. */
function pathTable(ctx: RequestContext): RouteTableRecord | null {
  const id = ctx.pathParams.route_table_id;
  return id === undefined ? null : routeTables(ctx.store).require(id, "RouteTable");
}

const ROUTES: ScopedCollection<RouteRecord, RouteTableRecord | null> = {
  collection: routes,
  label: "Route",
  type: "route",
  plural: "routes",
  filters: FILTERS,
  scope: pathTable,
  inScope: (r, table) => table === null || r.route_table_id === table.id,
  render: (_ctx, r) => routeRepresentation(r),
};

/** Checks a next-hop href against its type; answers it unchanged. */
function checkNextHopHref(store: Store, type: string, href: string, table: RouteTableRecord): string {
  const param = "route[next_hop_href]";
  if (type === "instance") {
    const instance = resolveHref(store, param, href, "instance");
    if (instance.cloudId !== table.cloud_id) {
      throw actionNotAllowed(
        `Instance ${instance.id} is in cloud ${instance.cloudId}, not in cloud ${table.cloud_id}`,
      );
    }
  } else if (type === "network_gateway") {
    const gateway = resolveHref<NetworkGatewayRecord>(store, param, href, "networkGateway").object;
    if (gateway.cloud_id !== table.cloud_id) {
      throw actionNotAllowed(
        `Network gateway ${gateway.id} is in cloud ${gateway.cloud_id}, not in cloud ${table.cloud_id}`,
      );
    }
  } else {
    const nic = parseParamHref(param, href, "networkInterface");
    if (nic.cloudId !== table.cloud_id) {
      throw actionNotAllowed(
        `Network interface ${nic.id} is in cloud ${nic.cloudId}, not in cloud ${table.cloud_id}`,
      );
    }
    if (!networkInterfaceOwner(store, nic.cloudId, nic.id))
      throw resourceNotFound("NetworkInterface", nic.id);
  }
  return href;
}

interface CloudSpecific {
  instance_tags?: string[];
  priority?: number;
}

export const routesResource = defineResource({
  name: "routes",
  collections: { [COLLECTIONS.routes]: routeSchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("security_manager");

    for (const base of ["/api/route_tables/:route_table_id/routes", "/api/routes"]) {
      scopedRoutes(sim, base, ROUTES, {
        read,
        write,
        create(ctx) {
          const fromPath = pathTable(ctx);
          const { route: fields } = ctx.validate<{ route: Members }>({ route: routeRules.create });
          checkNextHop(fields);
          const table = resolveHref<RouteTableRecord>(
            ctx.store,
            "route[route_table_href]",
            text(fields, "route_table_href")!,
            "routeTable",
          ).object;
          if (fromPath !== null && table.id !== fromPath.id) {
            throw actionNotAllowed(
              `route[route_table_href] names route table ${table.id}, not route table ${fromPath.id} of the path`,
            );
          }
          requireCapability(requireCloud(ctx.store, table.cloud_id), "supports_route_tables", "route tables");
          const type = text(fields, "next_hop_type")! as RouteRecord["next_hop_type"];
          const hopHref = text(fields, "next_hop_href");
          if (hopHref !== undefined) checkNextHopHref(ctx.store, type, hopHref, table);
          const attributes = (fields.cloud_specific_attributes ?? {}) as CloudSpecific;

          const now = ctx.clock.now();
          const route = routes(ctx.store).insert({
            cloud_id: table.cloud_id,
            route_table_id: table.id,
            network_id: table.network_id,
            description: text(fields, "description") ?? null,
            destination_cidr_block: text(fields, "destination_cidr_block")!,
            next_hop_type: type,
            next_hop_href: hopHref ?? null,
            next_hop_ip: text(fields, "next_hop_ip") ?? null,
            next_hop_url: text(fields, "next_hop_url") ?? null,
            instance_tags: attributes.instance_tags ?? null,
            priority: attributes.priority ?? null,
            state: "available",
            resource_uid: "",
            created_at: now,
            updated_at: now,
          });
          route.resource_uid = resourceUid("route", route.id);
          return ctx.created(routeHref(route));
        },

        update(ctx) {
          const table = pathTable(ctx);
          const { route: fields } = ctx.validate<{ route: Members }>({ route: routeRules.update });
          const route = findInScope(ctx, ROUTES, table);
          checkNextHop(fields, route.next_hop_type);
          const type = (text(fields, "next_hop_type") ?? route.next_hop_type) as RouteRecord["next_hop_type"];
          const hopHref = text(fields, "next_hop_href");
          if (hopHref !== undefined) {
            checkNextHopHref(
              ctx.store,
              type,
              hopHref,
              routeTables(ctx.store).require(route.route_table_id, "RouteTable"),
            );
          }

          if (fields.next_hop_type !== undefined && type !== route.next_hop_type) {
            // A new type drops the next-hop member of the old one.
            route.next_hop_href = null;
            route.next_hop_ip = null;
            route.next_hop_url = null;
          }
          route.next_hop_type = type;
          if (hopHref !== undefined) route.next_hop_href = hopHref;
          if (fields.next_hop_ip !== undefined) route.next_hop_ip = text(fields, "next_hop_ip")!;
          if (fields.description !== undefined) route.description = text(fields, "description")!;
          if (fields.destination_cidr_block !== undefined) {
            route.destination_cidr_block = text(fields, "destination_cidr_block")!;
          }
          route.updated_at = ctx.clock.now();
          return ctx.noContent();
        },
      });
    }
  },
});
