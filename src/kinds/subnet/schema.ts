import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { exactlyOne, href, immutable, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cidrBlock } from "../network/schema.ts";
import { rows } from "../shared/table.ts";
import type { TableRow } from "../shared/table-kind.ts";

export type SubnetClient = Pick<ServiceApi, "subnets" | "networks">;

/**
 * Spec field, API parameter (spec 4.8) and member of the real subnet media type. The network and
 * datacenter are create-only; the route table is not a create parameter (the update after the
 * first observation sets it), and its empty value resets the subnet to the network's default (no
 * `route_table` link). The cloud is the network's: its collection holds the subnet.
 */
export const subnetRows: TableRow<SubnetClient>[] = [
  {
    ...rows.createOnlyLink("networkHref", "network", "network_href"),
    ref: { field: "networkRef", kind: "Network" },
    required: true,
    // Not a link checked before the create: the kind reads the network (its cloud) first.
    linkCheck: false,
  },
  rows.createOnlyLink("datacenterHref", "datacenter", "datacenter_href"),
  { spec: "cidrBlock", param: "cidr_block", attribute: "cidr_block", write: "update" },
  { ...rows.name(), defaultName: true },
  rows.description(),
  {
    spec: "routeTableHref",
    ref: { field: "routeTableRef", kind: "RouteTable" },
    param: "route_table_href",
    link: "route_table",
    write: "afterCreate",
    empty: "blank",
  },
  ...rows.read({
    state: "state",
    visibility: "visibility",
    resourceUid: "resource_uid",
    isDefault: "is_default",
  }),
  { spec: "effectiveRouteTableHref", link: "effective_route_table", write: "read" },
  { spec: "cloudHref", write: "read" },
];

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
