import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "network", networkSchema);
  return {
    index: (options?: IndexOptions) => ops.index(NETWORKS, options),
    show: ops.show,
    create: (params: NetworkCreate) =>
      ops.create(NETWORKS, params, {
        filter: { cloud_href: params.cloud_href, ...(params.name ? { name: params.name } : {}) },
        match: (n) =>
          (params.name === undefined || n.name === params.name) &&
          (params.cidr_block === undefined || n.cidr_block === params.cidr_block),
      }),
    update: (href: string, params: NetworkUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
