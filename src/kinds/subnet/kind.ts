import { linkHref } from "../../api/index.ts";
import type { DesiredContext, ResolvedReference } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { cidrContains } from "../network/cidr.ts";
import { orUndefined } from "../shared/observe.ts";
import { perParent, tableKind } from "../shared/table-kind.ts";
import {
  SUBNET_CREATE_ONLY,
  type SubnetClient,
  type SubnetSpec,
  subnetRows,
  subnetSpecSchema,
} from "./schema.ts";

/** What the network tells a subnet: its href, cloud and CIDR. */
export interface NetworkFacts {
  href: string;
  cloudHref: string;
  cidrBlock?: string;
}

/** Pure: a RouteTable custom resource the subnet names must be of the subnet's network (the service refuses others). */
export function checkSubnetRouteTable(table: ResolvedReference | undefined, network: NetworkFacts): void {
  const of = table?.atProvider.networkHref;
  if (table && typeof of === "string" && of !== network.href) {
    throw new InvalidSpecError(
      "routeTableRef",
      `RouteTable ${table.name} is in network ${of}, not in the subnet's network ${network.href}`,
    );
  }
}

/** Pure: the subnet's CIDR must lie inside the network's (checked before any call). */
export function checkSubnetCidr(cidr: string, network: NetworkFacts): void {
  if (network.cidrBlock && !cidrContains(network.cidrBlock, cidr)) {
    throw new InvalidSpecError(
      "cidrBlock",
      `${cidr} is not inside the CIDR block ${network.cidrBlock} of network ${network.href}`,
    );
  }
}

/** The network a spec names: from the resolved Network custom resource, or shown by href. */
async function networkFacts(spec: SubnetSpec, ctx: DesiredContext<SubnetClient>): Promise<NetworkFacts> {
  const fromRef = ctx.refs.networkRef;
  if (fromRef) {
    const cloudHref = fromRef.atProvider.cloudHref;
    if (typeof cloudHref !== "string") {
      throw new InvalidSpecError(
        "networkRef",
        `Network ${fromRef.name} reports no cloud in status.atProvider`,
      );
    }
    const cidr = fromRef.atProvider.cidrBlock;
    return { href: fromRef.href, cloudHref, cidrBlock: typeof cidr === "string" ? cidr : undefined };
  }
  const href = spec.networkHref!;
  const n = await orUndefined(ctx.client.networks.show(href));
  if (!n) throw new DependencyNotReadyError(`spec.networkHref: ${href} does not exist in the service`);
  const cloudHref = linkHref(n, "cloud");
  if (!cloudHref) throw new InvalidSpecError("networkHref", `network ${href} shows no cloud link`);
  return { href, cloudHref, cidrBlock: n.cidr_block ?? undefined };
}

/**
 * A subnet (spec 4.8): a table kind, listed per cloud: its network's, which the desired state
 * takes from the network (and checks the CIDR and a named route table against it first).
 */
export const subnetKind = tableKind({
  kind: "Subnet",
  plural: "subnets",
  singular: "subnet",
  shortNames: ["svcsubnet"],
  description:
    "A subnet of a Network in the cloud-management service; its cloud is the network's. It may be associated " +
    "with a RouteTable of the network (routeTableRef), else it uses the network's default route table.",
  schema: subnetSpecSchema,
  printerColumns: [
    { name: "CIDR", type: "string", jsonPath: ".status.atProvider.cidrBlock", description: "CIDR block" },
    {
      name: "State",
      type: "string",
      jsonPath: ".status.atProvider.state",
      description: "State the service reports",
    },
  ],
  rows: subnetRows,
  resource: (client: SubnetClient) => perParent(client.subnets),
  // The cloud is recorded in atProvider after the first observation (the spec names only the network).
  perCloud: "cloudHref",
  lookupBy: ["networkHref"],
  matchBy: ["cidrBlock"],
  // The CRD's rules, in their order.
  immutable: SUBNET_CREATE_ONLY,
  deleteRefused: "stall",
  notReady: (o) => (o.state === "pending" ? `subnet ${o.href} is pending in the service` : undefined),
  overrides: {
    async desired(base, spec, ctx) {
      const d = await base.desired(spec, ctx);
      const network = await networkFacts(spec, ctx);
      checkSubnetCidr(spec.cidrBlock, network);
      checkSubnetRouteTable(ctx.refs.routeTableRef, network);
      return { ...d, cloudHref: network.cloudHref };
    },
  },
});
