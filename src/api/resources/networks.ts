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
import { linksSchema } from "../schemas.ts";

export const NETWORKS = "/api/networks";

export const networkSchema = z.looseObject({
  resource_uid: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  instance_tenancy: z.string().nullish(),
  cidr_block: z.string().nullish(),
  is_default: z.boolean(),
  links: linksSchema,
});
export type Network = z.output<typeof networkSchema>;

export interface NetworkCreate {
  cloud_href: string;
  cidr_block?: string;
  deployment_href?: string;
  description?: string;
  instance_tenancy?: "default" | "dedicated";
  name?: string;
}

export interface NetworkUpdate {
  deployment_href?: string;
  description?: string;
  name?: string;
  route_table_href?: string;
}

export function networksApi(client: ApiClient) {
  return {
    index: (options?: IndexOptions) => listAll(client, NETWORKS, networkSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, networkSchema, options),
    create: (params: NetworkCreate) =>
      createIn(
        client,
        NETWORKS,
        { network: params },
        {
          find: () =>
            findHrefs(
              client,
              NETWORKS,
              networkSchema,
              { cloud_href: params.cloud_href, ...(params.name ? { name: params.name } : {}) },
              (n) =>
                (params.name === undefined || n.name === params.name) &&
                (params.cidr_block === undefined || n.cidr_block === params.cidr_block),
            ),
        },
      ),
    update: (href: string, params: NetworkUpdate) => updateAt(client, href, { network: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
