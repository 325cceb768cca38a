import { linkHref, selfHref } from "../../api/index.ts";
import type { FieldDiff } from "../../runtime/sdk/index.ts";
import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { accountWide, type TableDesired, tableKind } from "../shared/table-kind.ts";
import { type CloudDirectory, sharedClouds } from "./cloud.ts";
import { type NetworkClient, networkRows, networkSpecSchema } from "./schema.ts";

/** Pure: a RouteTable named as default must be of this network (the service refuses others). */
export function checkDefaultRouteTable(href: string, d: TableDesired, diff: readonly FieldDiff[]): void {
  const changing = diff.some((x) => x.field === "defaultRouteTableRef");
  const of = d.routeTableNetworkHref;
  if (changing && of !== undefined && of !== href) {
    throw new InvalidSpecError(
      "defaultRouteTableRef",
      `route table ${d.routeTableHref} is in network ${of}, not in this network ${href}`,
    );
  }
}

/**
 * A network (spec 4.7): a table kind, listed account-wide. Its cloud must support networks
 * (read before any write); a RouteTable named as its default must be of this network; the
 * gateways still attached are detached before its deletion, which waits while the service
 * refuses it (subnets, routes named by href or made outside the operator).
 */
export function createNetworkKind(clouds: CloudDirectory = sharedClouds) {
  return tableKind({
    kind: "Network",
    plural: "networks",
    singular: "network",
    shortNames: ["svcnet"],
    description:
      "A network (VPC) of the cloud-management service. Subnets, RouteTables, NetworkGateways and Routes " +
      "reference it; it is deleted only after they are gone.",
    schema: networkSpecSchema,
    printerColumns: [
      { name: "CIDR", type: "string", jsonPath: ".status.atProvider.cidrBlock", description: "CIDR block" },
      {
        name: "Route-Table",
        type: "string",
        jsonPath: ".status.atProvider.defaultRouteTableHref",
        description: "Default route table",
        priority: 1,
      },
    ],
    rows: networkRows,
    resource: (client: NetworkClient) => accountWide(client.networks),
    lookupBy: ["cloudHref", "name"],
    // The service shows the default route table as its own member: export names it (by reference
    // to its RouteTable when that is exported too), so that Manage keeps it the default.
    export: { spec: (o) => ({ routeTableHref: o.defaultRouteTableHref }) },
    overrides: {
      async desired(base, spec, ctx) {
        const d = await base.desired(spec, ctx);
        const field = spec.cloudHref ? "cloudHref" : "cloud.name";
        // Before any create: a cloud without networks would only answer the create with an error.
        await clouds.require(
          ctx.client.clouds,
          d.cloudHref as string,
          "supports_networks",
          "networks",
          field,
        );
        const of = ctx.refs.defaultRouteTableRef?.atProvider.networkHref;
        return typeof of === "string" ? { ...d, routeTableNetworkHref: of } : d;
      },
      async update(base, client, href, desired, observed, diff) {
        checkDefaultRouteTable(href, desired, diff);
        await base.update(client, href, desired, observed, diff);
      },
      async delete(base, client, href, observed) {
        // The service refuses to destroy a network with attached gateways; detach any left
        // (an orphaned gateway, one attached by hand), since the attachment goes with the network anyway.
        const attached = await client.networkGateways.index({ filter: { network_href: href } });
        for (const g of attached) {
          if (linkHref(g, "network") === href)
            await client.networkGateways.update(selfHref(g), { network_href: "" });
        }
        await base.delete(client, href, observed);
      },
    },
  });
}

export const networkKind = createNetworkKind();
