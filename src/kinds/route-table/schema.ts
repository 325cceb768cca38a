import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import type { Route } from "../../api/resources/routes.ts";
import { linkHref } from "../../api/schemas.ts";
import { exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { compact } from "../shared/observe.ts";
import { serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import type { TableRow } from "../shared/table-kind.ts";

export type RouteTableClient = Pick<ServiceApi, "routeTables" | "networks" | "clouds">;

/** A route the table holds, as status.atProvider.routes shows it (the extended view embeds them). */
export interface TableRoute {
  href: string;
  destinationCidrBlock?: string;
  nextHopType?: string;
  /** The next hop: its href (the `next_hop` link), IP or URL, whichever the type uses. */
  nextHop?: string;
}

/** The embedded routes in href order (a stable status), each without empty members (status is a merge patch). */
export function tableRoutes(raw: unknown): TableRoute[] | null {
  if (!Array.isArray(raw)) return null;
  return (raw as Route[])
    .map((r) => {
      const text = (k: string) => {
        const v = (r as Record<string, unknown>)[k];
        return typeof v === "string" && v !== "" ? v : undefined;
      };
      return compact({
        href: linkHref(r, "self"),
        destinationCidrBlock: text("destination_cidr_block"),
        nextHopType: text("next_hop_type"),
        nextHop: linkHref(r, "next_hop") ?? text("next_hop_ip") ?? text("next_hop_url"),
      }) as unknown as TableRoute;
    })
    .filter((r) => typeof r.href === "string")
    .sort((a, b) => (a.href < b.href ? -1 : a.href > b.href ? 1 : 0));
}

/**
 * Spec field, API parameter and member of the real route_table media type. The network is
 * create-only (a change replaces the table); the cloud is the network's (the kind sets it, and a
 * difference there is reported against the network field). `routes` is read from the extended
 * view, which embeds them: one call shows a table and its routes, one index all tables'.
 */
export const routeTableRows: TableRow<RouteTableClient>[] = [
  {
    spec: "networkHref",
    ref: { field: "networkRef", kind: "Network" },
    required: true,
    param: "network_href",
    link: "network",
    write: "create",
  },
  { spec: "cloudHref", param: "cloud_href", link: "cloud", write: "create", empty: "unshown" },
  { ...rows.name(), defaultName: true },
  rows.description(),
  ...rows.read({ resourceUid: "resource_uid" }),
  { spec: "routes", attribute: "routes", write: "read", fromApi: tableRoutes },
  {
    spec: "routeCount",
    attribute: "routes",
    write: "read",
    fromApi: (raw) => (Array.isArray(raw) ? raw.length : null),
  },
];

export const routeTableSpecSchema = managedSpec(
  {
    networkRef: ref(
      "Network",
      "The Network custom resource the route table belongs to; waits until it is Ready. A change replaces the route table.",
    ).optional(),
    networkHref: href(
      "the network the route table belongs to (a change replaces the route table)",
    ).optional(),
    name: serviceName("route table"),
    description: z.string().max(4096).optional().describe("Description of the route table; empty clears it."),
  },
  [{ ...exactlyOne(["networkRef", "networkHref"]), fieldPath: ".networkRef" }],
  "Desired state of the route table; its cloud is its network's. Routes join it with routeTableRef, subnets " +
    "with routeTableRef, and a Network makes it its default with defaultRouteTableRef.",
);

export type RouteTableSpec = z.output<typeof routeTableSpecSchema>;
