import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "ip_address", ipAddressSchema);
  const collection = (cloudHref: string) => `${cloudHref}/ip_addresses`;
  return {
    index: (cloudHref: string, options?: IndexOptions) => ops.index(collection(cloudHref), options),
    show: ops.show,
    create: (cloudHref: string, params: IpAddressCreate) =>
      ops.create(collection(cloudHref), params, {
        filter: { name: params.name },
        match: (a) => a.name === params.name,
      }),
    /** `name` is required on update. */
    update: (href: string, params: { name: string; deployment_href?: string }) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
