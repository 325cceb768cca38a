/**
 * Network gateways (spec 4.9). Create answers 201 with the object in the body and a
 * Location. Update attaches the gateway to a network of the same cloud with network_href,
 * or detaches it with a blank network_href. An attached gateway cannot be destroyed (422).
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { requireCapability } from "../net/linked.ts";
import { type Members, networkGatewayRules, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type NetworkGatewayRecord,
  type NetworkRecord,
  networkGatewaySchema,
  resourceUid,
} from "../net/records.ts";
import { resolveHref } from "../net/references.ts";
import { actions, formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { ACCOUNT_WIDE, type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";

export const networkGateways = (store: Store) =>
  store.collection<NetworkGatewayRecord>(COLLECTIONS.networkGateways);

export function networkGatewayRepresentation(g: NetworkGatewayRecord): Representation {
  const links = [link("self", hrefOf("networkGateway", g.id))];
  if (g.network_id !== null) links.push(link("network", hrefOf("network", g.network_id)));
  links.push(link("cloud", hrefOf("cloud", g.cloud_id)));
  return {
    name: g.name,
    description: g.description,
    resource_uid: g.resource_uid,
    created_at: formatTimestamp(g.created_at),
    updated_at: formatTimestamp(g.updated_at),
    state: g.state,
    type: g.type,
    links,
    actions: actions(),
  };
}

const FILTERS: FilterSpec<NetworkGatewayRecord> = {
  cloud_href: { partial: false, get: (g) => hrefOf("cloud", g.cloud_id) },
  name: { partial: true, get: (g) => g.name },
  network_href: {
    partial: false,
    get: (g) => (g.network_id === null ? null : hrefOf("network", g.network_id)),
  },
};

function load(ctx: RequestContext): NetworkGatewayRecord {
  return networkGateways(ctx.store).require(ctx.param("id"), "NetworkGateway");
}

const GATEWAYS: ScopedCollection<NetworkGatewayRecord, null> = {
  ...ACCOUNT_WIDE,
  collection: networkGateways,
  label: "NetworkGateway",
  type: "network_gateway",
  plural: "network_gateways",
  filters: FILTERS,
  render: (_ctx, g) => networkGatewayRepresentation(g),
};

export const networkGatewaysResource = defineResource({
  name: "network_gateways",
  collections: { [COLLECTIONS.networkGateways]: networkGatewaySchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("security_manager");

    scopedRoutes(sim, "/api/network_gateways", GATEWAYS, {
      read,
      write,
      create(ctx) {
        const { network_gateway: fields } = ctx.validate<{ network_gateway: Members }>({
          network_gateway: networkGatewayRules.create,
        });
        const cloud = resolveHref(
          ctx.store,
          "network_gateway[cloud_href]",
          text(fields, "cloud_href")!,
          "cloud",
        ).object;
        requireCapability(cloud, "supports_networks", "network gateways");
        const now = ctx.clock.now();
        const gateway = networkGateways(ctx.store).insert({
          cloud_id: cloud.id,
          name: text(fields, "name")!,
          description: text(fields, "description") ?? null,
          type: text(fields, "type") as NetworkGatewayRecord["type"],
          network_id: null,
          state: "available",
          resource_uid: "",
          created_at: now,
          updated_at: now,
        });
        gateway.resource_uid = resourceUid(gateway.type === "vpn" ? "vgw" : "igw", gateway.id);
        return ctx.created(hrefOf("networkGateway", gateway.id), {
          type: "network_gateway",
          representation: networkGatewayRepresentation(gateway),
        });
      },

      update(ctx) {
        const { network_gateway: fields } = ctx.validate<{ network_gateway: Members }>({
          network_gateway: networkGatewayRules.update,
        });
        const gateway = load(ctx);
        const networkHref = text(fields, "network_href");
        let networkId: string | null | undefined;
        if (networkHref === "") networkId = null;
        else if (networkHref !== undefined) {
          const network = resolveHref<NetworkRecord>(
            ctx.store,
            "network_gateway[network_href]",
            networkHref,
            "network",
          ).object;
          if (network.cloud_id !== gateway.cloud_id) {
            throw actionNotAllowed(
              `Network ${network.id} is in cloud ${network.cloud_id}, not in cloud ${gateway.cloud_id} of the gateway`,
            );
          }
          networkId = network.id;
        }
        if (fields.name !== undefined) gateway.name = text(fields, "name")!;
        if (fields.description !== undefined) gateway.description = text(fields, "description")!;
        if (networkId !== undefined) gateway.network_id = networkId;
        gateway.updated_at = ctx.clock.now();
        return ctx.noContent();
      },

      destroy(ctx) {
        const gateway = load(ctx);
        if (gateway.network_id !== null) {
          throw actionNotAllowed(
            `Network gateway ${gateway.id} is attached to network ${gateway.network_id}: detach it first (network_href blank)`,
          );
        }
        networkGateways(ctx.store).delete(gateway.id);
        return ctx.noContent();
      },
    });
  },
});
