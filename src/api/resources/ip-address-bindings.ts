import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { type CreateLookup, resourceOps } from "../resource-ops.ts";
import { linkHref, linksSchema, timestampSchema } from "../schemas.ts";

/** Ports are declared attributes of the real media type; their JSON type is not shown: digits or a number. */
const portSchema = z.union([z.number(), z.string()]).nullish();

export const ipAddressBindingSchema = z.looseObject({
  created_at: timestampSchema.nullish(),
  recurring: z.boolean(),
  public_port: portSchema,
  private_port: portSchema,
  protocol: z.string().nullish(),
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

/**
 * How a create answered without `Location` is found: the bindings of its address (and instance,
 * when named) with its ports; an address may hold several port forwards.
 */
function lostCreate(params: IpAddressBindingCreate): CreateLookup<IpAddressBinding> | undefined {
  const filter: Record<string, string> = {};
  if (params.public_ip_address_href) filter.ip_address_href = params.public_ip_address_href;
  if (params.instance_href) filter.instance_href = params.instance_href;
  if (Object.keys(filter).length === 0) return undefined;
  const same = (shown: unknown, sent: string | undefined) => sent === undefined || String(shown) === sent;
  return {
    filter,
    match: (b) =>
      same(b.public_port, params.public_port) &&
      same(b.private_port, params.private_port ?? params.public_port) &&
      same(b.protocol, params.protocol) &&
      (params.instance_href === undefined || linkHref(b, "instance") === params.instance_href),
  };
}

/** Under a cloud or an IP address (`parentHref`): `<parentHref>/ip_address_bindings`. No update. */
export function ipAddressBindingsApi(client: ApiClient) {
  const ops = resourceOps(client, "ip_address_binding", ipAddressBindingSchema);
  const collection = (parentHref: string) => `${parentHref}/ip_address_bindings`;
  return {
    index: (parentHref: string, options?: IndexOptions) => ops.index(collection(parentHref), options),
    show: ops.show,
    create: (parentHref: string, params: IpAddressBindingCreate) =>
      ops.create(collection(parentHref), params, lostCreate(params)),
    destroy: ops.destroy,
  };
}
