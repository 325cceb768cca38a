import { realRepresentation as real } from "../real-media-types.testing.ts";
import { routeTableKind } from "./kind.ts";

const C = "/api/clouds/1";

/**
 * RouteTable's case of real-shapes.test.ts: a table (view `extended`, embedding its routes) built
 * only from the real route_table and route media types.
 */
export const routeTableRealShape = {
  reason:
    "RouteTable: network and cloud are its links, its routes the extended view's embedded routes; a rename is drift",
  kind: routeTableKind,
  href: "/api/route_tables/1",
  desired: {
    networkHref: "/api/networks/1",
    cloudHref: C,
    name: "public",
    fields: { networkHref: "networkRef", cloudHref: "networkRef" },
  },
  paths: {
    "/api/route_tables/1": real(
      "route_table",
      {
        name: "default",
        description: null,
        resource_uid: "rtb-1",
        routes: [
          real(
            "route",
            {
              description: null,
              destination_cidr_block: "0.0.0.0/0",
              next_hop_type: "network_gateway",
              next_hop_ip: null,
              next_hop_url: null,
              state: "available",
              cloud_specific_attributes: null,
            },
            {
              self: "/api/route_tables/1/routes/4",
              route_table: "/api/route_tables/1",
              cloud: C,
              next_hop: "/api/network_gateways/9",
            },
          ),
        ],
      },
      {
        self: "/api/route_tables/1",
        cloud: C,
        network: "/api/networks/1",
        routes: "/api/route_tables/1/routes",
      },
    ),
  },
  atProvider: {
    networkHref: "/api/networks/1",
    cloudHref: C,
    resourceUid: "rtb-1",
    routeCount: 1,
    routes: [
      {
        href: "/api/route_tables/1/routes/4",
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
        nextHop: "/api/network_gateways/9",
      },
    ],
  },
  diff: ["name"],
};
