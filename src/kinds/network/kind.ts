import { isApiError, linkHref, selfHref } from "../../api/index.ts";
import type { Network, NetworkCreate, NetworkUpdate } from "../../api/resources/networks.ts";
import type { DesiredContext, FieldDiff, ManagedKind, Reference } from "../../runtime/kind.ts";
import { hrefLinks } from "../../runtime/links.ts";
import { DeletionBlockedError } from "../../runtime/result.ts";
import { compact, orUndefined } from "../shared/observe.ts";
import type { NetClient } from "./api.ts";
import { CloudDirectory, resolveCloud } from "./cloud.ts";
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
}

export function toNetworkObserved(n: Network): NetworkObserved {
  return {
    href: selfHref(n),
    name: n.name ?? null,
    description: n.description ?? null,
    cidrBlock: n.cidr_block ?? null,
    instanceTenancy: n.instance_tenancy ?? null,
    isDefault: n.is_default,
    resourceUid: n.resource_uid ?? null,
    cloudHref: linkHref(n, "cloud"),
    defaultRouteTableHref: linkHref(n, "default_route_table"),
    deploymentHref: linkHref(n, "deployment"),
  };
}

export function networkReferences(spec: NetworkSpec): Reference[] {
  return spec.deploymentRef
    ? [{ field: "deploymentRef", kind: "Deployment", name: spec.deploymentRef.name }]
    : [];
}

/** Desired state once the cloud href is known (pure). */
export function desiredNetwork(
  spec: NetworkSpec,
  metaName: string,
  cloudHref: string,
  deploymentRefHref?: string,
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
  if (spec.routeTableHref !== undefined) d.routeTableHref = spec.routeTableHref;
  return d;
}

/**
 * Pure diff by spec field. Unset optional fields are not managed. The cloud, CIDR and
 * tenancy are create-only (listed in `immutable`): a difference there is reported, never updated.
 */
export function diffNetwork(desired: NetworkDesired, observed: NetworkObserved): FieldDiff[] {
  const out: FieldDiff[] = [];
  const differs = (field: string, want: unknown, have: unknown) => {
    if (want !== undefined && want !== have) out.push({ field, desired: want, observed: have });
  };
  if (observed.cloudHref !== undefined) differs(desired.cloudField, desired.cloudHref, observed.cloudHref);
  differs("cidrBlock", desired.cidrBlock, observed.cidrBlock);
  differs("instanceTenancy", desired.instanceTenancy, observed.instanceTenancy);
  differs("name", desired.name, observed.name);
  differs("description", desired.description, observed.description ?? "");
  differs("deploymentHref", desired.deploymentHref, observed.deploymentHref);
  differs("routeTableHref", desired.routeTableHref, observed.defaultRouteTableHref);
  return out;
}

export function networkCreateParams(desired: NetworkDesired): NetworkCreate {
  const p: NetworkCreate = { cloud_href: desired.cloudHref, name: desired.name };
  if (desired.description !== undefined) p.description = desired.description;
  if (desired.cidrBlock !== undefined) p.cidr_block = desired.cidrBlock;
  if (desired.instanceTenancy !== undefined) p.instance_tenancy = desired.instanceTenancy;
  if (desired.deploymentHref !== undefined) p.deployment_href = desired.deploymentHref;
  // The route table can only be chosen once the network (and so its tables) exists: the update that follows does it.
  return p;
}

/** The PUT parameters for the updatable fields that differ (one call). */
export function networkUpdateParams(diff: FieldDiff[], desired: NetworkDesired): NetworkUpdate {
  const p: NetworkUpdate = {};
  for (const d of diff) {
    if (d.field === "name") p.name = desired.name;
    if (d.field === "description") p.description = desired.description ?? "";
    if (d.field === "deploymentHref") p.deployment_href = desired.deploymentHref;
    if (d.field === "routeTableHref") p.route_table_href = desired.routeTableHref;
  }
  return p;
}

export function networkAtProvider(o: NetworkObserved): Record<string, unknown> {
  return compact({
    name: o.name,
    description: o.description,
    cidrBlock: o.cidrBlock,
    instanceTenancy: o.instanceTenancy,
    isDefault: o.isDefault,
    resourceUid: o.resourceUid,
    cloudHref: o.cloudHref,
    defaultRouteTableHref: o.defaultRouteTableHref,
    deploymentHref: o.deploymentHref,
  });
}

async function showNetwork(client: NetClient, href: string): Promise<NetworkObserved | undefined> {
  const n = await orUndefined(client.networks.show(href));
  return n && toNetworkObserved(n);
}

/** How often a deletion the service refuses (dependents it knows of, not referenced here) is retried. */
export const DELETION_RETRY_MS = 5_000;

/**
 * Destroys the network. The service refuses (422) while subnets, routes or attached gateways
 * exist; those referenced by name already held the deletion back (DeletionBlocked), so these are
 * objects named by href or made outside the operator: wait for them instead of stalling for good.
 */
export async function destroyNetwork(client: Pick<NetClient, "networks">, href: string): Promise<void> {
  try {
    await client.networks.destroy(href);
  } catch (error) {
    if (isApiError(error) && error.kind === "conflict") {
      throw new DeletionBlockedError(
        `the service refuses to delete ${href} yet: ${error.serviceMessage ?? error.message}`,
        DELETION_RETRY_MS,
      );
    }
    throw error;
  }
}

export function createNetworkKind(
  clouds: CloudDirectory = new CloudDirectory(),
): ManagedKind<NetworkSpec, NetworkDesired, NetworkObserved, NetClient> {
  return {
    kind: "Network",
    plural: "networks",
    singular: "network",
    shortNames: ["svcnet"],
    description:
      "A network (VPC) of the cloud-management service. Subnets, NetworkGateways and Routes reference it; " +
      "it is deleted only after they are gone.",
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
      return desiredNetwork(spec, ctx.meta.name, cloudHref, ctx.refs.deploymentRef?.href);
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
      list: async (client) => (await client.networks.index()).map(toNetworkObserved),
    },
  };
}

export const networkKind = createNetworkKind();
