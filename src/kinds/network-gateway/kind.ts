import { type CloudDirectory, sharedClouds } from "../network/cloud.ts";
import { accountWide, tableKind } from "../shared/table-kind.ts";
import { type NetworkGatewayClient, networkGatewayRows, networkGatewaySpecSchema } from "./schema.ts";

/**
 * A network gateway (spec 4.9): a table kind, listed account-wide. Its cloud's capabilities are
 * read before any write (an unknown cloud waits, naming the field); the update after the create
 * attaches it to its network, and it is detached before its deletion.
 */
export function createNetworkGatewayKind(clouds: CloudDirectory = sharedClouds) {
  return tableKind({
    kind: "NetworkGateway",
    plural: "networkgateways",
    singular: "networkgateway",
    shortNames: ["svcgw"],
    description:
      "A network gateway (vpn or internet) of the cloud-management service, attached to a Network through update " +
      "and detached before it is deleted.",
    schema: networkGatewaySpecSchema,
    printerColumns: [
      { name: "Type", type: "string", jsonPath: ".spec.type", description: "vpn or internet" },
      {
        name: "Network",
        type: "string",
        jsonPath: ".status.atProvider.networkHref",
        description: "Attached network",
        priority: 1,
      },
    ],
    rows: networkGatewayRows,
    resource: (client: NetworkGatewayClient) => accountWide(client.networkGateways),
    lookupBy: ["cloudHref", "name"],
    deleteRefused: "stall",
    overrides: {
      async desired(base, spec, ctx) {
        const d = await base.desired(spec, ctx);
        // Cached per cloud; a cloud the service does not know waits before any write.
        const field = spec.cloudHref ? "cloudHref" : "cloud.name";
        await clouds.capabilities(ctx.client.clouds, d.cloudHref as string, field);
        return d;
      },
      async delete(base, client, href, observed) {
        // Detach first: the network's deletion (which waits for this one) must find no gateway attached.
        if (observed.networkHref) await client.networkGateways.update(href, { network_href: "" });
        await base.delete(client, href, observed);
      },
    },
  });
}

export const networkGatewayKind = createNetworkGatewayKind();
