import type { Subnet, SubnetCreate, SubnetUpdate } from "../../api/resources/subnets.ts";
import type {
  DesiredContext,
  FieldDiff,
  ManagedKind,
  Reference,
  ResolvedReference,
} from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, hrefLinks, InvalidSpecError } from "../../runtime/sdk/index.ts";
import type { NetClient } from "../network/api.ts";
import { cidrContains } from "../network/cidr.ts";
import { toNetworkObserved } from "../network/kind.ts";
import { orUndefined } from "../shared/observe.ts";
import { refOrHref } from "../shared/refs.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { SUBNET_CREATE_ONLY, type SubnetSpec, subnetSpecSchema } from "./schema.ts";

export interface SubnetObserved {
  href: string;
  name: string | null;
  description: string | null;
  cidrBlock: string | null;
  state: string | null;
  visibility: string | null;
  resourceUid: string | null;
  isDefault: boolean;
  datacenterHref: string | undefined;
  /** The subnet's own route table; undefined when it uses the network's default. */
  routeTableHref: string | undefined;
  effectiveRouteTableHref: string | undefined;
  networkHref: string | undefined;
  /** The cloud whose subnets collection holds it (known from the network, not from the representation). */
  cloudHref: string | undefined;
}

/** What the network tells a subnet: its href, cloud and CIDR. */
export interface NetworkFacts {
  href: string;
  cloudHref: string;
  cidrBlock?: string;
}

export interface SubnetDesired {
  network: NetworkFacts;
  networkField: "networkRef" | "networkHref";
  cidrBlock: string;
  name: string;
  description?: string;
  datacenterHref?: string;
  /** "" resets to the network's default route table. */
  routeTableHref?: string;
  /** Which spec field named the route table, so that a change is reported against it. */
  routeTableField?: "routeTableRef" | "routeTableHref";
}

/**
 * The subnet's fields. The network and datacenter are create-only (see `immutable`); the route
 * table is not a create parameter (the update after the first observation sets it), and its
 * empty value resets the subnet to the network's default (no `route_table` link).
 */
export const subnetFields = new FieldTable<SubnetDesired, SubnetObserved>([
  {
    ...rows.createOnlyLink("networkHref", "network", "network_href"),
    from: (d) => d.networkField,
    desired: (d) => d.network.href,
  },
  rows.createOnlyLink("datacenterHref", "datacenter", "datacenter_href"),
  { spec: "cidrBlock", param: "cidr_block", attribute: "cidr_block", write: "update" },
  rows.name(),
  rows.description(),
  {
    spec: "routeTableHref",
    from: (d) => d.routeTableField ?? "routeTableHref",
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
  // The cloud whose subnets collection holds it: known from the network, not from the representation.
  { spec: "cloudHref", write: "read" },
]);

export const toSubnetObserved = (s: Subnet, cloudHref: string | undefined): SubnetObserved =>
  subnetFields.observe(s, { cloudHref });

export function subnetReferences(spec: SubnetSpec): Reference[] {
  const refs: Reference[] = [];
  if (spec.networkRef) refs.push({ field: "networkRef", kind: "Network", name: spec.networkRef.name });
  if (spec.routeTableRef)
    refs.push({ field: "routeTableRef", kind: "RouteTable", name: spec.routeTableRef.name });
  return refs;
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

export function desiredSubnet(
  spec: SubnetSpec,
  metaName: string,
  network: NetworkFacts,
  routeTable?: ResolvedReference,
): SubnetDesired {
  checkSubnetCidr(spec.cidrBlock, network);
  checkSubnetRouteTable(routeTable, network);
  const d: SubnetDesired = {
    network,
    networkField: spec.networkRef ? "networkRef" : "networkHref",
    cidrBlock: spec.cidrBlock,
    name: spec.name ?? metaName,
  };
  if (spec.description !== undefined) d.description = spec.description;
  if (spec.datacenterHref !== undefined) d.datacenterHref = spec.datacenterHref;
  const table = refOrHref(
    { field: "routeTableRef", resolved: routeTable },
    { field: "routeTableHref", value: spec.routeTableHref },
  );
  if (table) [d.routeTableHref, d.routeTableField] = [table.href, table.field];
  return d;
}

export const diffSubnet = (d: SubnetDesired, o: SubnetObserved) => subnetFields.diff(d, o);
export const subnetCreateParams = (d: SubnetDesired) => subnetFields.createParams<SubnetCreate>(d);
export const subnetUpdateParams = (diff: FieldDiff[], d: SubnetDesired) =>
  subnetFields.updateParams<SubnetUpdate>(diff, d);
export const subnetAtProvider = (o: SubnetObserved) => subnetFields.atProvider(o);

/** The network a spec names: from the resolved Network custom resource, or shown by href. */
async function networkFacts(spec: SubnetSpec, ctx: DesiredContext<NetClient>): Promise<NetworkFacts> {
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
  const o = toNetworkObserved(n);
  if (!o.cloudHref) throw new InvalidSpecError("networkHref", `network ${href} shows no cloud link`);
  return { href, cloudHref: o.cloudHref, cidrBlock: o.cidrBlock ?? undefined };
}

export const subnetKind: ManagedKind<SubnetSpec, SubnetDesired, SubnetObserved, NetClient> = {
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
  references: subnetReferences,
  // networkHref is shown in desired (the subnet's cloud is the network's); the route table is set right after the create.
  links: (spec) => hrefLinks(spec, ["datacenterHref", "routeTableHref"]),
  desired: async (spec, ctx) =>
    desiredSubnet(spec, ctx.meta.name, await networkFacts(spec, ctx), ctx.refs.routeTableRef),
  async observe(client, href, desired) {
    const s = await orUndefined(client.subnets.show(href));
    return s && toSubnetObserved(s, desired?.network.cloudHref);
  },
  async lookup(client, desired) {
    const found = await client.subnets.index(desired.network.cloudHref, {
      filter: { network_href: desired.network.href },
    });
    return found
      .map((s) => toSubnetObserved(s, desired.network.cloudHref))
      .filter((s) => s.cidrBlock === desired.cidrBlock);
  },
  hrefOf: (o) => o.href,
  create: (client, desired) => client.subnets.create(desired.network.cloudHref, subnetCreateParams(desired)),
  async update(client, href, desired, _observed, diff) {
    const params = subnetUpdateParams(diff, desired);
    if (Object.keys(params).length > 0) await client.subnets.update(href, params);
  },
  delete: (client, href) => client.subnets.destroy(href),
  diff: diffSubnet,
  immutable: [...SUBNET_CREATE_ONLY],
  atProvider: subnetAtProvider,
  notReady: (o) => (o.state === "pending" ? `subnet ${o.href} is pending in the service` : undefined),
  index: {
    // Subnets are listed per cloud; the cloud is recorded in atProvider after the first observation.
    scope: (_spec, status) => {
      const cloud = status.atProvider?.cloudHref;
      return typeof cloud === "string" ? cloud : undefined;
    },
    scopeOfDesired: (desired) => desired.network.cloudHref,
    list: async (client, cloudHref, wanted) =>
      (await client.subnets.index(cloudHref, { wanted })).map((s) => toSubnetObserved(s, cloudHref)),
  },
};
