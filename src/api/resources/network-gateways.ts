import { z } from "zod";
import type { ApiClient } from "../client.ts";
import {
  createIn,
  destroyAt,
  findHrefs,
  type IndexOptions,
  listAll,
  type ShowOptions,
  showOne,
  updateAt,
} from "../resource.ts";
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
  return {
    index: (options?: IndexOptions) => listAll(client, NETWORK_GATEWAYS, networkGatewaySchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, networkGatewaySchema, options),
    create: (params: NetworkGatewayCreate) =>
      createIn(
        client,
        NETWORK_GATEWAYS,
        { network_gateway: params },
        {
          find: () =>
            findHrefs(
              client,
              NETWORK_GATEWAYS,
              networkGatewaySchema,
              { cloud_href: params.cloud_href, name: params.name },
              (g) => g.name === params.name && g.type === params.type,
            ),
        },
      ),
    update: (href: string, params: NetworkGatewayUpdate) =>
      updateAt(client, href, { network_gateway: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
