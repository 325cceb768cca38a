import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "subnet", subnetSchema);
  return {
    index: (parentHref: string, options?: IndexOptions) => ops.index(`${parentHref}/subnets`, options),
    show: ops.show,
    create: (cloudHref: string, params: SubnetCreate) =>
      ops.create(`${cloudHref}/subnets`, params, {
        filter: { network_href: params.network_href },
        match: (s) => s.cidr_block === params.cidr_block,
      }),
    update: (href: string, params: SubnetUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
