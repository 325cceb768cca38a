import * as z from "zod";
import { exactlyOne, href, immutable, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cidrBlock } from "../network/schema.ts";

/** Fields the service takes only on create. */
export const SUBNET_CREATE_ONLY = ["networkRef", "networkHref", "datacenterHref"] as const;

export const subnetSpecSchema = managedSpec(
  {
    networkRef: ref(
      "Network",
      "The Network custom resource the subnet belongs to; waits until it is Ready.",
    ).optional(),
    networkHref: href("the network the subnet belongs to").optional(),
    cidrBlock: cidrBlock("IPv4 CIDR block of the subnet; must lie inside the network's CIDR block."),
    datacenterHref: href(
      "the datacenter (zone) of the subnet, in the network's cloud. Create-only",
    ).optional(),
    name: z
      .string()
      .max(255)
      .optional()
      .describe("Name of the subnet in the service; defaults to metadata.name."),
    description: z.string().max(4096).optional().describe("Description of the subnet; empty clears it."),
    routeTableRef: ref(
      "RouteTable",
      "A RouteTable custom resource of the subnet's network to associate the subnet with; waits until it is Ready.",
    ).optional(),
    routeTableHref: z
      .string()
      .regex(/^(\/api\/\S+)?$/, "must be a route table href starting with /api/, or empty")
      .optional()
      .describe(
        "Route table of the subnet (one of its network's); the empty string resets it to the network's default route table.",
      ),
  },
  [
    { ...exactlyOne(["networkRef", "networkHref"]), fieldPath: ".networkRef" },
    { ...exactlyOne(["routeTableRef", "routeTableHref"], false), fieldPath: ".routeTableRef" },
    ...SUBNET_CREATE_ONLY.map(immutable),
  ],
  "Desired state of the subnet.",
);

export type SubnetSpec = z.output<typeof subnetSpecSchema>;
