/**
 * Networks (spec 4.7). Writes need security_manager, reads observer (spec 5.3). A network
 * gets a default route table on create, linked with rel `default_route_table`; destroy is
 * refused (422) while subnets, attached gateways or routes depend on it.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, parameterError } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { isAwsLike, requireCapability } from "../net/linked.ts";
import { listIds } from "../net/messages.ts";
import { type Members, networkRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type NetworkGatewayRecord,
  type NetworkRecord,
  networkSchema,
  type RouteRecord,
  type RouteTableRecord,
  resourceUid,
  type SubnetRecord,
} from "../net/records.ts";
import { resolveHref } from "../net/references.ts";
import { link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { ACCOUNT_WIDE, type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";
import { defaultRouteTableId, insertDefaultRouteTable, routeTableHref, routeTables } from "./route-tables.ts";

export const networks = (store: Store) => store.collection<NetworkRecord>(COLLECTIONS.networks);

/** `defaultTable`: the id of the network's default route table (see defaultRouteTableId). */
export function networkRepresentation(n: NetworkRecord, defaultTable: string | null): Representation {
  const links = [link("self", hrefOf("network", n.id)), link("cloud", hrefOf("cloud", n.cloud_id))];
  if (defaultTable !== null) links.push(link("default_route_table", routeTableHref(defaultTable)));
  if (n.deployment_href !== null) links.push(link("deployment", n.deployment_href));
  return {
    resource_uid: n.resource_uid,
    name: n.name,
    description: n.description,
    instance_tenancy: n.instance_tenancy,
    cidr_block: n.cidr_block,
    is_default: n.is_default,
    links,
    actions: [],
  };
}

const FILTERS: FilterSpec<NetworkRecord> = {
  cidr_block: { partial: false, get: (n) => n.cidr_block },
  cloud_href: { partial: false, get: (n) => hrefOf("cloud", n.cloud_id) },
  deployment_href: { partial: false, get: (n) => n.deployment_href },
  name: { partial: true, get: (n) => n.name },
  resource_uid: { partial: false, get: (n) => n.resource_uid },
};

/** Everything that keeps a network from being destroyed, described for the 422 message. */
export function networkDependents(store: Store, networkId: string): string[] {
  const subnets = store
    .collection<SubnetRecord>(COLLECTIONS.subnets)
    .filter((s) => s.network_id === networkId);
  const gateways = store
    .collection<NetworkGatewayRecord>(COLLECTIONS.networkGateways)
    .filter((g) => g.network_id === networkId);
  const routes = store.collection<RouteRecord>(COLLECTIONS.routes).filter((r) => r.network_id === networkId);
  const out: string[] = [];
  if (subnets.length) out.push(`subnets ${listIds(subnets)}`);
  if (gateways.length) out.push(`attached network gateways ${listIds(gateways)}`);
  if (routes.length) out.push(`routes ${listIds(routes)}`);
  return out;
}

function load(ctx: RequestContext): NetworkRecord {
  return networks(ctx.store).require(ctx.param("id"), "Network");
}

const NETWORKS: ScopedCollection<NetworkRecord, null> = {
  ...ACCOUNT_WIDE,
  collection: networks,
  label: "Network",
  type: "network",
  plural: "networks",
  filters: FILTERS,
  render: (ctx, n) => networkRepresentation(n, defaultRouteTableId(ctx.store, n)),
};

export const networksResource = defineResource({
  name: "networks",
  collections: { [COLLECTIONS.networks]: networkSchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("security_manager");

    scopedRoutes(sim, "/api/networks", NETWORKS, {
      read,
      write,
      create(ctx) {
        const { network: fields } = ctx.validate<{ network: Members }>({ network: networkRules.create });
        const cloud = resolveHref(
          ctx.store,
          "network[cloud_href]",
          text(fields, "cloud_href")!,
          "cloud",
        ).object;
        requireCapability(cloud, "supports_networks", "networks");
        const cidr = text(fields, "cidr_block");
        if (cidr === undefined && isAwsLike(cloud)) {
          throw parameterError(
            `network[cidr_block] is required on cloud ${cloud.id} (${String(cloud.cloud_type)})`,
          );
        }
        const deployment = text(fields, "deployment_href");
        if (deployment !== undefined)
          resolveHref(ctx.store, "network[deployment_href]", deployment, "deployment");

        const now = ctx.clock.now();
        const network = networks(ctx.store).insert({
          cloud_id: cloud.id,
          name: text(fields, "name") ?? null,
          description: text(fields, "description") ?? null,
          cidr_block: cidr ?? null,
          instance_tenancy: (text(fields, "instance_tenancy") ??
            "default") as NetworkRecord["instance_tenancy"],
          deployment_href: deployment ?? null,
          resource_uid: "",
          is_default: false,
          default_route_table_id: null,
          created_at: now,
          updated_at: now,
        });
        network.resource_uid = resourceUid("vpc", network.id);
        network.default_route_table_id = insertDefaultRouteTable(ctx.store, network, now).id;
        return ctx.created(hrefOf("network", network.id));
      },

      update(ctx) {
        const { network: fields } = ctx.validate<{ network: Members }>({ network: networkRules.update });
        const network = load(ctx);
        const deployment = text(fields, "deployment_href");
        if (deployment) resolveHref(ctx.store, "network[deployment_href]", deployment, "deployment");
        const tableHref = text(fields, "route_table_href");
        let table: RouteTableRecord | undefined;
        if (tableHref !== undefined) {
          table = resolveHref<RouteTableRecord>(
            ctx.store,
            "network[route_table_href]",
            tableHref,
            "routeTable",
          ).object;
          if (table.network_id !== network.id) {
            throw actionNotAllowed(
              `Route table ${table.id} belongs to network ${table.network_id}, not network ${network.id}`,
            );
          }
        }

        if (fields.name !== undefined) network.name = text(fields, "name")!;
        if (fields.description !== undefined) network.description = text(fields, "description")!;
        if (deployment !== undefined) network.deployment_href = deployment === "" ? null : deployment;
        if (table) {
          for (const t of routeTables(ctx.store).filter((t) => t.network_id === network.id)) {
            t.is_default = t.id === table.id;
          }
          network.default_route_table_id = table.id;
        }
        network.updated_at = ctx.clock.now();
        return ctx.noContent();
      },

      destroy(ctx) {
        const network = load(ctx);
        const dependents = networkDependents(ctx.store, network.id);
        if (dependents.length) {
          throw actionNotAllowed(
            `Network ${network.id} still has ${dependents.join("; ")}: remove them first`,
          );
        }
        for (const t of routeTables(ctx.store).filter((t) => t.network_id === network.id))
          routeTables(ctx.store).delete(t.id);
        networks(ctx.store).delete(network.id);
        return ctx.noContent();
      },
    });
  },
});
