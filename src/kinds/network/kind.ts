import { linkHref, selfHref } from "../../api/index.ts";
import type { Network, NetworkCreate, NetworkUpdate } from "../../api/resources/networks.ts";
import type {
  DesiredContext,
  FieldDiff,
  ManagedKind,
  Reference,
  ResolvedReference,
} from "../../runtime/sdk/index.ts";
import { hrefLinks, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { destroyOrWait, orUndefined } from "../shared/observe.ts";
import { refOrHref } from "../shared/refs.ts";
import { FieldTable, rows } from "../shared/table.ts";
import type { NetClient } from "./api.ts";
import { type CloudDirectory, resolveCloud, sharedClouds } from "./cloud.ts";
import { NETWORK_CREATE_ONLY, type NetworkSpec, networkSpecSchema } from "./schema.ts";

/** The network as the service shows it, in the kind's own words. */
export interface NetworkObserved {
  href: string;
  name: string | null;
  description: string | null;
  cidrBlock: string | null;
  instanceTenancy: string | null;
  isDefault: boolean;
  resourceUid: string | null;
  cloudHref: string | undefined;
  defaultRouteTableHref: string | undefined;
  /** The `deployment` link (the real network media type declares it); absent means none. */
  deploymentHref: string | undefined;
}

export interface NetworkDesired {
  cloudHref: string;
  /** Which spec field named the cloud, so that a change is reported against it. */
  cloudField: "cloudHref" | "cloud";
  name: string;
  description?: string;
  cidrBlock?: string;
  instanceTenancy?: "default" | "dedicated";
  deploymentHref?: string;
  routeTableHref?: string;
  /** Which spec field named the default route table, so that a change is reported against it. */
  routeTableField?: "routeTableHref" | "defaultRouteTableRef";
  /** The network of a RouteTable custom resource named as default (checked against this network before the update). */
  routeTableNetworkHref?: string;
}

/**
 * The network's fields: spec field, API parameter, representation member. The cloud, CIDR and
 * tenancy are create-only (listed in `immutable`): a difference there is reported, never updated.
 * The route table can only be chosen once the network (and so its tables) exists: the update
 * after the create sets it.
 */
export const networkFields = new FieldTable<NetworkDesired, NetworkObserved>([
  { ...rows.createOnlyLink("cloudHref", "cloud", "cloud_href"), from: (d) => d.cloudField },
  { spec: "cidrBlock", param: "cidr_block", attribute: "cidr_block", write: "create" },
  { spec: "instanceTenancy", param: "instance_tenancy", attribute: "instance_tenancy", write: "create" },
  rows.name(),
  rows.description(),
  { spec: "deploymentHref", param: "deployment_href", link: "deployment", write: "update" },
  {
    spec: "routeTableHref",
    from: (d) => d.routeTableField ?? "routeTableHref",
    param: "route_table_href",
    link: "default_route_table",
    observed: "defaultRouteTableHref",
    write: "afterCreate",
  },
  ...rows.read({ isDefault: "is_default", resourceUid: "resource_uid" }),
]);

export const toNetworkObserved = (n: Network): NetworkObserved => networkFields.observe(n);

/**
 * The Deployment, and the default RouteTable as an after-create association: the RouteTable names
 * this network (it is made in it), so waiting for it before the create would be a cycle. The
 * network is created and Ready without it, the table next, and the network's update sets it then.
 */
export function networkReferences(spec: NetworkSpec): Reference[] {
  const refs: Reference[] = [];
  if (spec.deploymentRef)
    refs.push({ field: "deploymentRef", kind: "Deployment", name: spec.deploymentRef.name });
  if (spec.defaultRouteTableRef)
    refs.push({
      field: "defaultRouteTableRef",
      kind: "RouteTable",
      name: spec.defaultRouteTableRef.name,
      afterCreate: true,
    });
  return refs;
}

/** Desired state once the cloud href is known (pure). */
export function desiredNetwork(
  spec: NetworkSpec,
  metaName: string,
  cloudHref: string,
  deploymentRefHref?: string,
  defaultRouteTable?: ResolvedReference,
): NetworkDesired {
  const d: NetworkDesired = {
    cloudHref,
    cloudField: spec.cloudHref ? "cloudHref" : "cloud",
    name: spec.name ?? metaName,
  };
  if (spec.description !== undefined) d.description = spec.description;
  if (spec.cidrBlock !== undefined) d.cidrBlock = spec.cidrBlock;
  if (spec.instanceTenancy !== undefined) d.instanceTenancy = spec.instanceTenancy;
  const deployment = spec.deploymentHref ?? deploymentRefHref;
  if (deployment !== undefined) d.deploymentHref = deployment;
  const table = refOrHref(
    { field: "defaultRouteTableRef", resolved: defaultRouteTable },
    { field: "routeTableHref", value: spec.routeTableHref },
  );
  if (table) [d.routeTableHref, d.routeTableField] = [table.href, table.field];
  const of = defaultRouteTable?.atProvider.networkHref;
  if (typeof of === "string") d.routeTableNetworkHref = of;
  return d;
}

/** Pure: a RouteTable named as default must be of this network (the service refuses others). */
export function checkDefaultRouteTable(href: string, d: NetworkDesired, diff: readonly FieldDiff[]): void {
  const changing = diff.some((x) => x.field === "defaultRouteTableRef");
  if (changing && d.routeTableNetworkHref !== undefined && d.routeTableNetworkHref !== href) {
    throw new InvalidSpecError(
      "defaultRouteTableRef",
      `route table ${d.routeTableHref} is in network ${d.routeTableNetworkHref}, not in this network ${href}`,
    );
  }
}

export const diffNetwork = (d: NetworkDesired, o: NetworkObserved) => networkFields.diff(d, o);
export const networkCreateParams = (d: NetworkDesired) => networkFields.createParams<NetworkCreate>(d);
export const networkUpdateParams = (diff: FieldDiff[], d: NetworkDesired) =>
  networkFields.updateParams<NetworkUpdate>(diff, d);
export const networkAtProvider = (o: NetworkObserved) => networkFields.atProvider(o);

async function showNetwork(client: NetClient, href: string): Promise<NetworkObserved | undefined> {
  const n = await orUndefined(client.networks.show(href));
  return n && toNetworkObserved(n);
}

/**
 * Destroys the network. The service refuses (422) while subnets, routes or attached gateways
 * exist; those referenced by name already held the deletion back (DeletionBlocked), so these are
 * objects named by href or made outside the operator: wait for them instead of stalling for good.
 */
export const destroyNetwork = (client: Pick<NetClient, "networks">, href: string): Promise<void> =>
  destroyOrWait(() => client.networks.destroy(href), href);

export function createNetworkKind(
  clouds: CloudDirectory = sharedClouds,
): ManagedKind<NetworkSpec, NetworkDesired, NetworkObserved, NetClient> {
  return {
    kind: "Network",
    plural: "networks",
    singular: "network",
    shortNames: ["svcnet"],
    description:
      "A network (VPC) of the cloud-management service. Subnets, RouteTables, NetworkGateways and Routes " +
      "reference it; it is deleted only after they are gone.",
    schema: networkSpecSchema,
    printerColumns: [
      { name: "CIDR", type: "string", jsonPath: ".status.atProvider.cidrBlock", description: "CIDR block" },
      {
        name: "Route-Table",
        type: "string",
        jsonPath: ".status.atProvider.defaultRouteTableHref",
        description: "Default route table",
        priority: 1,
      },
    ],
    references: networkReferences,
    // The cloud is checked in desired (its capabilities); the route table is set right after the create.
    links: (spec) => hrefLinks(spec, ["deploymentHref", "routeTableHref"]),
    async desired(spec: NetworkSpec, ctx: DesiredContext<NetClient>) {
      const cloudHref = await resolveCloud(ctx.client.clouds, spec, ctx);
      const field = spec.cloudHref ? "cloudHref" : "cloud.name";
      // Before any create: a cloud without networks would only answer the create with an error.
      await clouds.require(ctx.client.clouds, cloudHref, "supports_networks", "networks", field);
      return desiredNetwork(
        spec,
        ctx.meta.name,
        cloudHref,
        ctx.refs.deploymentRef?.href,
        ctx.refs.defaultRouteTableRef,
      );
    },
    observe: showNetwork,
    async lookup(client, desired) {
      const found = await client.networks.index({
        filter: { cloud_href: desired.cloudHref, name: desired.name },
      });
      // The name filter is a substring match.
      return found
        .map(toNetworkObserved)
        .filter(
          (n) =>
            n.name === desired.name && (desired.cidrBlock === undefined || n.cidrBlock === desired.cidrBlock),
        );
    },
    hrefOf: (o) => o.href,
    create: (client, desired) => client.networks.create(networkCreateParams(desired)),
    async update(client, href, desired, _observed, diff) {
      checkDefaultRouteTable(href, desired, diff);
      const params = networkUpdateParams(diff, desired);
      if (Object.keys(params).length > 0) await client.networks.update(href, params);
    },
    async delete(client, href) {
      // The service refuses to destroy a network with attached gateways; detach any left
      // (an orphaned gateway, one attached by hand), since the attachment goes with the network anyway.
      const attached = await client.networkGateways.index({ filter: { network_href: href } });
      for (const g of attached) {
        if (linkHref(g, "network") === href)
          await client.networkGateways.update(selfHref(g), { network_href: "" });
      }
      await destroyNetwork(client, href);
    },
    diff: diffNetwork,
    immutable: [...NETWORK_CREATE_ONLY],
    atProvider: networkAtProvider,
    index: {
      scope: () => "",
      list: async (client, _scope, wanted) =>
        (await client.networks.index({ wanted })).map(toNetworkObserved),
    },
    // The service shows the default route table as its own member: export names it (by reference
    // to its RouteTable when that is exported too), so that Manage keeps it the default.
    export: { spec: (o) => ({ routeTableHref: o.defaultRouteTableHref }) },
  };
}

export const networkKind = createNetworkKind();
