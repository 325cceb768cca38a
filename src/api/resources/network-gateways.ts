import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { actionsSchema, linksSchema } from "../schemas.ts";

export const NETWORK_GATEWAYS = "/api/network_gateways";

export const networkGatewaySchema = z.looseObject({
  name: z.string(),
  description: z.string().nullable(),
  resource_uid: z.string().nullish(),
  state: z.string().nullish(),
  type: z.string(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type NetworkGateway = z.output<typeof networkGatewaySchema>;

export interface NetworkGatewayCreate {
  cloud_href: string;
  name: string;
  type: "vpn" | "internet";
  description?: string;
}

export interface NetworkGatewayUpdate {
  name?: string;
  description?: string;
  /** A network href attaches the gateway; an empty string detaches it. */
  network_href?: string;
}

export function networkGatewaysApi(client: ApiClient) {
  const ops = resourceOps(client, "network_gateway", networkGatewaySchema);
  return {
    index: (options?: IndexOptions) => ops.index(NETWORK_GATEWAYS, options),
    show: ops.show,
    create: (params: NetworkGatewayCreate) =>
      ops.create(NETWORK_GATEWAYS, params, {
        filter: { cloud_href: params.cloud_href, name: params.name },
        match: (g) => g.name === params.name && g.type === params.type,
      }),
    update: (href: string, params: NetworkGatewayUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
