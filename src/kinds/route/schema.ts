import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cidrBlock, ipv4Address } from "../network/schema.ts";
import { compact } from "../shared/observe.ts";
import { rows } from "../shared/table.ts";
import type { TableRow } from "../shared/table-kind.ts";
import { nextHopCelRules } from "./rules.ts";

export type RouteClient = Pick<ServiceApi, "routes" | "routeTables">;

/** cloud_specific_attributes' member `key`, where the route shows them. */
const attribute = (key: string) => (raw: unknown) => (raw as Record<string, unknown> | null)?.[key];

/**
 * Spec field, API parameter (spec 4.4) and member of the real route media type: what the create
 * sends and atProvider shows. The diff and the update are the kind's own: the next-hop rules
 * decide which members a change of type carries and what replaces the route. The route has no
 * `network` link: its network is its route table's, which the kind reads (and `networkRef` names).
 */
export const routeRows: TableRow<RouteClient>[] = [
  { spec: "networkHref", ref: { field: "networkRef", kind: "Network" }, write: "read" },
  {
    spec: "routeTableHref",
    ref: { field: "routeTableRef", kind: "RouteTable" },
    param: "route_table_href",
    link: "route_table",
    write: "create",
  },
  {
    spec: "destinationCidrBlock",
    param: "destination_cidr_block",
    attribute: "destination_cidr_block",
    write: "update",
  },
  { spec: "nextHopType", param: "next_hop_type", attribute: "next_hop_type", write: "update" },
  // The hop's href is the `next_hop` link (the real route has no `next_hop_href` attribute).
  {
    spec: "nextHopHref",
    ref: { field: "nextHopGatewayRef", kind: "NetworkGateway" },
    param: "next_hop_href",
    link: "next_hop",
    write: "update",
  },
  { spec: "nextHopIp", param: "next_hop_ip", attribute: "next_hop_ip", write: "update" },
  { spec: "nextHopUrl", param: "next_hop_url", attribute: "next_hop_url", write: "create" },
  rows.description(),
  {
    spec: "cloudSpecificAttributes",
    param: "cloud_specific_attributes",
    attribute: "cloud_specific_attributes",
    toParam: (v) => {
      const { instanceTags, priority } = v as { instanceTags?: string[]; priority?: number };
      return instanceTags === undefined && priority === undefined
        ? undefined
        : compact({ instance_tags: instanceTags, priority });
    },
    at: false,
    write: "create",
  },
  {
    spec: "instanceTags",
    attribute: "cloud_specific_attributes",
    fromApi: attribute("instance_tags"),
    write: "read",
  },
  { spec: "priority", attribute: "cloud_specific_attributes", fromApi: attribute("priority"), write: "read" },
  ...rows.read({ state: "state", resourceUid: "resource_uid" }),
  { spec: "cloudHref", link: "cloud", write: "read" },
];

export const routeSpecSchema = managedSpec(
  {
    networkRef: ref(
      "Network",
      "The Network custom resource whose default route table holds the route; waits until it is Ready.",
    ).optional(),
    routeTableRef: ref(
      "RouteTable",
      "The RouteTable custom resource that holds the route; waits until it is Ready.",
    ).optional(),
    routeTableHref: href("the route table that holds the route").optional(),
    destinationCidrBlock: cidrBlock("Destination IPv4 CIDR block of the route, e.g. 0.0.0.0/0."),
    nextHopType: z
      .enum(["instance", "network_interface", "network_gateway", "ip_string", "url"])
      .describe(
        "Kind of next hop: instance, network_interface or network_gateway (nextHopHref; nextHopGatewayRef for " +
          "network_gateway), ip_string (nextHopIp) or url (nextHopUrl).",
      ),
    nextHopHref: href("the next hop (an instance, network interface or network gateway)").optional(),
    nextHopGatewayRef: ref(
      "NetworkGateway",
      "A NetworkGateway custom resource as the next hop (nextHopType network_gateway); waits until it is Ready.",
    ).optional(),
    nextHopIp: ipv4Address("IPv4 address of the next hop (nextHopType ip_string).").optional(),
    nextHopUrl: z.string().min(1).max(2048).optional().describe("URL of the next hop (nextHopType url)."),
    description: z.string().max(4096).optional().describe("Description of the route; empty clears it."),
    cloudSpecificAttributes: z
      .object({
        instanceTags: z
          .array(z.string().min(1).max(255))
          .max(64)
          .optional()
          .describe("Instance tags the route applies to; omitted means a global route."),
        priority: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe("Breaks ties among matching routes of maximum length; lower wins."),
      })
      .strict()
      .optional()
      .describe("Cloud-specific attributes (create-only: a change replaces the route)."),
  },
  [
    { ...exactlyOne(["networkRef", "routeTableRef", "routeTableHref"]), fieldPath: ".networkRef" },
    ...nextHopCelRules,
  ],
  "Desired state of the route. A change of the route table, nextHopUrl or cloudSpecificAttributes " +
    "(which the update call cannot carry) replaces the route: the new one is created before the old one is deleted, " +
    "so traffic to the destination is never left without a route (the service allows several routes per " +
    "destination; during the swap the old one still carries it).",
);

export type RouteSpec = z.output<typeof routeSpecSchema>;
