import { isIPv4 } from "node:net";
import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cloudByName, cloudChoice, deploymentChoice, serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows, tableRules } from "../shared/table-kind.ts";
import { IPV4_CIDR_RULE, IPV4_RULE, parseCidr } from "./cidr.ts";

export { cloudByName };

/** Longer than any address or block: bounds the rule's cost, and what a refusal quotes back. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * An IPv4 CIDR block: the CRD checks it with a CEL rule (its message says what is wrong, in words)
 * and the operator with the same test. Host bits are taken as written, as the service takes them.
 */
export const cidrBlock = (what: string) =>
  z
    .string()
    .max(MAX_ADDRESS_LENGTH)
    .meta({ "x-kubernetes-validations": [IPV4_CIDR_RULE] })
    .refine((text) => parseCidr(text) !== undefined, IPV4_CIDR_RULE.message)
    .describe(
      `${what} Host bits are taken as written: the service keeps 10.10.3.5/24 as given (it neither masks ` +
        "nor refuses them), so write the block's own address (10.10.3.0/24).",
    );

/** An IPv4 address (dotted quad), checked as cidrBlock is. */
export const ipv4Address = (what: string) =>
  z
    .string()
    .max(MAX_ADDRESS_LENGTH)
    .meta({ "x-kubernetes-validations": [IPV4_RULE] })
    .refine((text) => isIPv4(text), IPV4_RULE.message)
    .describe(what);

export type NetworkClient = Pick<ServiceApi, "networks" | "networkGateways" | "clouds">;

/**
 * Spec field, API parameter (spec 4.7) and member of the real network media type. The cloud,
 * CIDR and tenancy are create-only: changing them needs a new network. The default route table
 * can only be chosen once the network (and so its tables) exists: the update after the create
 * sets it, and its RouteTable, which names this network, is an after-create reference.
 */
export const networkRows: TableRow<NetworkClient>[] = [
  // Not a link checked before the create: the kind reads the cloud's capabilities first.
  tableRows.cloud({ param: "cloud_href", link: "cloud", empty: "unshown", linkCheck: false }),
  { spec: "cidrBlock", param: "cidr_block", attribute: "cidr_block", write: "create" },
  { spec: "instanceTenancy", param: "instance_tenancy", attribute: "instance_tenancy", write: "create" },
  { ...rows.name(), defaultName: true },
  rows.description(),
  tableRows.deployment(),
  {
    spec: "routeTableHref",
    ref: { field: "defaultRouteTableRef", kind: "RouteTable", afterCreate: true },
    param: "route_table_href",
    link: "default_route_table",
    observed: "defaultRouteTableHref",
    write: "afterCreate",
  },
  ...rows.read({ isDefault: "is_default", resourceUid: "resource_uid" }),
];

export const networkSpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud the network lives in"),
    name: serviceName("network"),
    description: z.string().max(4096).optional().describe("Description of the network; empty clears it."),
    cidrBlock: cidrBlock(
      "IPv4 CIDR block of the network (required by some clouds, e.g. amazon). Create-only.",
    ).optional(),
    instanceTenancy: z
      .enum(["default", "dedicated"])
      .optional()
      .describe("default lets instances decide; dedicated forces dedicated launch. Create-only."),
    ...deploymentChoice("the network"),
    routeTableHref: href("a route table of this network to make its default route table").optional(),
    defaultRouteTableRef: ref(
      "RouteTable",
      "A RouteTable custom resource of this network to make its default route table. Set by an update once the " +
        "network exists and the RouteTable (which names this network) is Ready; the network is Ready before that.",
    ).optional(),
  },
  tableRules(networkRows),
  "Desired state of the network.",
);

export type NetworkSpec = z.output<typeof networkSpecSchema>;
