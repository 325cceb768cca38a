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
} from "../resource.ts";
import { linksSchema, timestampSchema } from "../schemas.ts";

export const ipAddressBindingSchema = z.looseObject({
  created_at: timestampSchema.nullish(),
  recurring: z.boolean(),
  links: linksSchema,
});
export type IpAddressBinding = z.output<typeof ipAddressBindingSchema>;

export interface IpAddressBindingCreate {
  instance_href?: string;
  server_href?: string;
  public_ip_address_href?: string;
  public_port?: string;
  private_port?: string;
  protocol?: "UDP" | "TCP";
}

/** Under a cloud or an IP address (`parentHref`): `<parentHref>/ip_address_bindings`. */
export function ipAddressBindingsApi(client: ApiClient) {
  const collection = (parentHref: string) => `${parentHref}/ip_address_bindings`;
  return {
    index: (parentHref: string, options?: IndexOptions) =>
      listAll(client, collection(parentHref), ipAddressBindingSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, ipAddressBindingSchema, options),
    create: (parentHref: string, params: IpAddressBindingCreate) =>
      createIn(
        client,
        collection(parentHref),
        { ip_address_binding: params },
        {
          find: params.public_ip_address_href
            ? () =>
                findHrefs(
                  client,
                  collection(parentHref),
                  ipAddressBindingSchema,
                  { ip_address_href: params.public_ip_address_href! },
                  () => true,
                )
            : undefined,
        },
      ),
    destroy: (href: string) => destroyAt(client, href),
  };
}
