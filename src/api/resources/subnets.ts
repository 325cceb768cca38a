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

export const subnetSchema = z.looseObject({
  visibility: z.string().nullish(),
  resource_uid: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  state: z.string().nullish(),
  cidr_block: z.string().nullable(),
  is_default: z.boolean(),
  links: linksSchema,
});
export type Subnet = z.output<typeof subnetSchema>;

export interface SubnetCreate {
  cidr_block: string;
  network_href: string;
  datacenter_href?: string;
  description?: string;
  name?: string;
}

export interface SubnetUpdate {
  cidr_block?: string;
  description?: string;
  name?: string;
  /** An empty string resets the subnet to the network's default route table. */
  route_table_href?: string;
}

/** Subnets live under a cloud (`/api/clouds/:id/subnets`) or an instance: `parentHref` is either. */
export function subnetsApi(client: ApiClient) {
  return {
    index: (parentHref: string, options?: IndexOptions) =>
      listAll(client, `${parentHref}/subnets`, subnetSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, subnetSchema, options),
    create: (cloudHref: string, params: SubnetCreate) => {
      const path = `${cloudHref}/subnets`;
      return createIn(
        client,
        path,
        { subnet: params },
        {
          find: () =>
            findHrefs(
              client,
              path,
              subnetSchema,
              { network_href: params.network_href },
              (s) => s.cidr_block === params.cidr_block,
            ),
        },
      );
    },
    update: (href: string, params: SubnetUpdate) => updateAt(client, href, { subnet: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
