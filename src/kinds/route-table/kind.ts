import { linkHref } from "../../api/schemas.ts";
import type { DesiredContext, ManagedKind } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { type CloudDirectory, sharedClouds } from "../network/cloud.ts";
import { LinkCache } from "../shared/link-cache.ts";
import { orUndefined } from "../shared/observe.ts";
import { type TableDesired, type TableObserved, tableKind } from "../shared/table-kind.ts";
import {
  type RouteTableClient,
  type RouteTableSpec,
  routeTableRows,
  routeTableSpecSchema,
  type TableRoute,
} from "./schema.ts";

/** What lets a route table go while the service refuses its deletion (its 422 names the holders). */
const DELETE_HINT =
  "it goes once they let go of it: a network whose default route table it is (point the Network's " +
  "routeTableHref or defaultRouteTableRef at another table; deleting the network removes it too), subnets " +
  'associated with it (another routeTableRef or routeTableHref, or routeTableHref: "" for the network\'s ' +
  "default), routes in it (delete them)";

/** The routes status.atProvider.routes shows, as the runtime reports those no Route manages. */
export function routeContents(observed: TableObserved): { href: string; label: string }[] {
  const routes = (observed.routes as TableRoute[] | null | undefined) ?? [];
  return routes.map((r) => ({
    href: r.href,
    label: `route ${r.destinationCidrBlock ?? "?"} -> ${r.nextHopType ?? "?"}${r.nextHop ? ` ${r.nextHop}` : ""}`,
  }));
}

/**
 * The table's cloud: its network's. From the Network custom resource's status, or the network's
 * `cloud` link, remembered per Account (a network's cloud never changes).
 */
async function cloudOf(
  ctx: DesiredContext<RouteTableClient>,
  networkHref: string,
  field: string,
  networkClouds: LinkCache,
): Promise<string> {
  const network = ctx.refs.networkRef;
  if (network) {
    const cloud = network.atProvider.cloudHref;
    if (typeof cloud !== "string")
      throw new InvalidSpecError(field, `Network ${network.name} reports no cloud in status.atProvider`);
    return cloud;
  }
  const client = ctx.client;
  const cloud = await networkClouds.one(client, networkHref, (h) => orUndefined(client.networks.show(h)));
  if (cloud === undefined)
    throw new DependencyNotReadyError(`spec.${field}: ${networkHref} does not exist in the service`);
  return cloud;
}

/**
 * A route table (real media type RouteTables): a table kind with its cloud taken from its network,
 * the routes the service reports in it in status (the extended view: no call per route), those no
 * Route manages reported but never deleted (contents), and a change of network replacing it, the
 * new table created first so that routes and subnets can move over before the old one goes.
 */
export function createRouteTableKind(
  options: { networkClouds?: LinkCache; clouds?: CloudDirectory } = {},
): ManagedKind<RouteTableSpec, TableDesired, TableObserved, RouteTableClient> {
  const networkClouds = options.networkClouds ?? new LinkCache({ rel: "cloud" });
  const clouds = options.clouds ?? sharedClouds;
  return tableKind<RouteTableSpec, RouteTableClient>({
    kind: "RouteTable",
    plural: "routetables",
    singular: "routetable",
    shortNames: ["svcrtb"],
    description:
      "A route table of a Network in the cloud-management service. Routes join it (routeTableRef), subnets " +
      "are associated with it (routeTableRef), a Network may make it its default (defaultRouteTableRef); it is " +
      "deleted only after they let go of it.",
    schema: routeTableSpecSchema,
    printerColumns: [
      {
        name: "Routes",
        type: "integer",
        jsonPath: ".status.atProvider.routeCount",
        description: "Routes the service reports in the table",
      },
      {
        name: "Network",
        type: "string",
        jsonPath: ".status.atProvider.networkHref",
        description: "Network of the route table",
        priority: 1,
      },
    ],
    rows: routeTableRows,
    resource: (client) => ({
      show: (href) => client.routeTables.show(href, { view: "extended" }),
      index: (_scope, options) => client.routeTables.index({ ...options, view: "extended" }),
      create: (_scope, params) => client.routeTables.create(params as never),
      update: (href, params) => client.routeTables.update(href, params),
      destroy: (href) => client.routeTables.destroy(href),
    }),
    // The index filters on the network only; the name tells a lost create from the network's other tables.
    lookupBy: ["networkHref"],
    matchBy: ["name"],
    deleteHint: DELETE_HINT,
    contents: routeContents,
    // A difference of cloud is reported against the network field (the cloud is the network's).
    immutable: ["networkRef", "networkHref"],
    replace: "createBeforeDelete",
    overrides: {
      async desired(base, spec, ctx) {
        const d = await base.desired(spec, ctx);
        const field = d.fields.networkHref ?? "networkHref";
        const cloudHref = await cloudOf(ctx, d.networkHref as string, field, networkClouds);
        // Before any create: a cloud without route tables would only answer it with an error.
        await clouds.require(ctx.client.clouds, cloudHref, "supports_route_tables", "route tables", field);
        return { ...d, cloudHref, fields: { ...d.fields, cloudHref: field } };
      },
      async lookup(base, client, desired) {
        const found = await base.lookup(client, desired);
        if (found.length === 0) return found;
        // Never the network's own default table (the service names it `default`): a RouteTable of
        // that name whose create was lost must not take it for its own.
        const network = await orUndefined(client.networks.show(desired.networkHref as string));
        const own = network && linkHref(network, "default_route_table");
        return found.filter((t) => t.href !== own);
      },
    },
  });
}

export const routeTableKind = createRouteTableKind();
