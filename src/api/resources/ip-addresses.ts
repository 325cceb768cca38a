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
import { linksSchema, timestampSchema } from "../schemas.ts";

export const ipAddressSchema = z.looseObject({
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  name: z.string(),
  address: z.string().nullish(),
  links: linksSchema,
});
export type IpAddress = z.output<typeof ipAddressSchema>;

export interface IpAddressCreate {
  name: string;
  deployment_href?: string;
  domain?: "ec2_classic" | "vpc";
  network_href?: string;
}

/** IP addresses of a cloud: `/api/clouds/:id/ip_addresses`. */
export function ipAddressesApi(client: ApiClient) {
  const collection = (cloudHref: string) => `${cloudHref}/ip_addresses`;
  return {
    index: (cloudHref: string, options?: IndexOptions) =>
      listAll(client, collection(cloudHref), ipAddressSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, ipAddressSchema, options),
    create: (cloudHref: string, params: IpAddressCreate) =>
      createIn(
        client,
        collection(cloudHref),
        { ip_address: params },
        {
          find: () =>
            findHrefs(
              client,
              collection(cloudHref),
              ipAddressSchema,
              { name: params.name },
              (a) => a.name === params.name,
            ),
        },
      ),
    /** `name` is required on update. */
    update: (href: string, params: { name: string; deployment_href?: string }) =>
      updateAt(client, href, { ip_address: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
