import type {
  NetworkGateway,
  NetworkGatewayCreate,
  NetworkGatewayUpdate,
} from "../../api/resources/network-gateways.ts";
import type { DesiredContext, FieldDiff, ManagedKind, Reference } from "../../runtime/sdk/index.ts";
import { hrefLinks } from "../../runtime/sdk/index.ts";
import type { NetClient } from "../network/api.ts";
import { type CloudDirectory, resolveCloud, sharedClouds } from "../network/cloud.ts";
import { orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { GATEWAY_CREATE_ONLY, type NetworkGatewaySpec, networkGatewaySpecSchema } from "./schema.ts";

export interface NetworkGatewayObserved {
  href: string;
  name: string;
  description: string | null;
  type: string;
  state: string | null;
  resourceUid: string | null;
  cloudHref: string | undefined;
  /** The attached network; undefined when detached. */
  networkHref: string | undefined;
}

export interface NetworkGatewayDesired {
  cloudHref: string;
  cloudField: "cloudHref" | "cloud";
  name: string;
  type: "vpn" | "internet";
  description?: string;
  /** The network to attach to; null means detached (no reference in the spec). */
  networkHref: string | null;
  networkField: "networkRef" | "networkHref";
}

/**
 * The gateway's fields. Cloud and type are create-only (see `immutable`). The attachment is
 * always managed (no network reference means detached) and is an update (spec 4.9): the update
 * after the first observation attaches it.
 */
export const gatewayFields = new FieldTable<NetworkGatewayDesired, NetworkGatewayObserved>([
  { ...rows.createOnlyLink("cloudHref", "cloud", "cloud_href"), from: (d) => d.cloudField },
  { spec: "type", param: "type", attribute: "type", write: "create" },
  rows.name(),
  rows.description(),
  {
    spec: "networkHref",
    from: (d) => d.networkField,
    param: "network_href",
    link: "network",
    write: "afterCreate",
    empty: "none",
  },
  ...rows.read({ state: "state", resourceUid: "resource_uid" }),
]);

export const toGatewayObserved = (g: NetworkGateway): NetworkGatewayObserved => gatewayFields.observe(g);

export function gatewayReferences(spec: NetworkGatewaySpec): Reference[] {
  return spec.networkRef ? [{ field: "networkRef", kind: "Network", name: spec.networkRef.name }] : [];
}

export function desiredGateway(
  spec: NetworkGatewaySpec,
  metaName: string,
  cloudHref: string,
  networkRefHref?: string,
): NetworkGatewayDesired {
  const d: NetworkGatewayDesired = {
    cloudHref,
    cloudField: spec.cloudHref ? "cloudHref" : "cloud",
    name: spec.name ?? metaName,
    type: spec.type,
    networkHref: spec.networkHref ?? networkRefHref ?? null,
    networkField: spec.networkRef ? "networkRef" : "networkHref",
  };
  if (spec.description !== undefined) d.description = spec.description;
  return d;
}

export const diffGateway = (d: NetworkGatewayDesired, o: NetworkGatewayObserved) => gatewayFields.diff(d, o);
export const gatewayCreateParams = (d: NetworkGatewayDesired) =>
  gatewayFields.createParams<NetworkGatewayCreate>(d);
export const gatewayUpdateParams = (diff: FieldDiff[], d: NetworkGatewayDesired) =>
  gatewayFields.updateParams<NetworkGatewayUpdate>(diff, d);
export const gatewayAtProvider = (o: NetworkGatewayObserved) => gatewayFields.atProvider(o);

export function createNetworkGatewayKind(
  clouds: CloudDirectory = sharedClouds,
): ManagedKind<NetworkGatewaySpec, NetworkGatewayDesired, NetworkGatewayObserved, NetClient> {
  return {
    kind: "NetworkGateway",
    plural: "networkgateways",
    singular: "networkgateway",
    shortNames: ["svcgw"],
    description:
      "A network gateway (vpn or internet) of the cloud-management service, attached to a Network through update " +
      "and detached before it is deleted.",
    schema: networkGatewaySpecSchema,
    printerColumns: [
      { name: "Type", type: "string", jsonPath: ".spec.type", description: "vpn or internet" },
      {
        name: "Network",
        type: "string",
        jsonPath: ".status.atProvider.networkHref",
        description: "Attached network",
        priority: 1,
      },
    ],
    references: gatewayReferences,
    // The cloud is checked in desired (its capabilities); the network is attached right after the create.
    links: (spec) => hrefLinks(spec, ["networkHref"]),
    async desired(spec: NetworkGatewaySpec, ctx: DesiredContext<NetClient>) {
      const cloudHref = await resolveCloud(ctx.client.clouds, spec, ctx);
      // An unknown cloud is an InvalidSpec naming the field before any write (cached per cloud).
      await clouds.capabilities(ctx.client.clouds, cloudHref, spec.cloudHref ? "cloudHref" : "cloud.name");
      return desiredGateway(spec, ctx.meta.name, cloudHref, ctx.refs.networkRef?.href);
    },
    async observe(client, href) {
      const g = await orUndefined(client.networkGateways.show(href));
      return g && toGatewayObserved(g);
    },
    async lookup(client, desired) {
      const found = await client.networkGateways.index({
        filter: { cloud_href: desired.cloudHref, name: desired.name },
      });
      return found.map(toGatewayObserved).filter((g) => g.name === desired.name && g.type === desired.type);
    },
    hrefOf: (o) => o.href,
    create: (client, desired) => client.networkGateways.create(gatewayCreateParams(desired)),
    async update(client, href, desired, _observed, diff) {
      const params = gatewayUpdateParams(diff, desired);
      if (Object.keys(params).length > 0) await client.networkGateways.update(href, params);
    },
    async delete(client, href, observed) {
      // Detach first: the network's deletion (which waits for this one) must find no gateway attached.
      if (observed.networkHref) await client.networkGateways.update(href, { network_href: "" });
      await client.networkGateways.destroy(href);
    },
    diff: diffGateway,
    immutable: [...GATEWAY_CREATE_ONLY],
    atProvider: gatewayAtProvider,
    index: {
      scope: () => "",
      list: async (client, _scope, wanted) =>
        (await client.networkGateways.index({ wanted })).map(toGatewayObserved),
    },
  };
}

export const networkGatewayKind = createNetworkGatewayKind();
