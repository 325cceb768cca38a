import { z } from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "ip_address_binding", ipAddressBindingSchema);
  const collection = (parentHref: string) => `${parentHref}/ip_address_bindings`;
  return {
    index: (parentHref: string, options?: IndexOptions) => ops.index(collection(parentHref), options),
    show: ops.show,
    create: (parentHref: string, params: IpAddressBindingCreate) =>
      ops.create(
        collection(parentHref),
        params,
        params.public_ip_address_href
          ? { filter: { ip_address_href: params.public_ip_address_href }, match: () => true }
          : undefined,
      ),
    destroy: ops.destroy,
  };
}
