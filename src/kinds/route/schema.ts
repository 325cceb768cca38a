import * as z from "zod";
import { exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { IPV4 } from "../network/cidr.ts";
import { cidrBlock } from "../network/schema.ts";
import { nextHopCelRules } from "./rules.ts";

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
    nextHopIp: z
      .string()
      .regex(IPV4, "must be an IPv4 address (dotted quad)")
      .optional()
      .describe("IPv4 address of the next hop (nextHopType ip_string)."),
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
