import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { linksSchema } from "../schemas.ts";

export const RESOURCE_GROUPS = "/api/resource_groups";

/** The spec shows no response fields beyond the writable ones: everything but links is optional. */
export const resourceGroupSchema = z.looseObject({
  name: z.string().nullish(),
  description: z.string().nullish(),
  state: z.string().nullish(),
  links: linksSchema,
});
export type ResourceGroup = z.output<typeof resourceGroupSchema>;

export interface ResourceGroupCreate {
  cloud_href: string;
  name: string;
  deployment_href?: string;
  description?: string;
}

export function resourceGroupsApi(client: ApiClient) {
  const ops = resourceOps(client, "resource_group", resourceGroupSchema);
  return {
    index: (options?: IndexOptions) => ops.index(RESOURCE_GROUPS, options),
    show: ops.show,
    create: (params: ResourceGroupCreate) =>
      ops.create(RESOURCE_GROUPS, params, {
        filter: { cloud_href: params.cloud_href, name: params.name },
        match: (g) => g.name === params.name,
      }),
    update: (href: string, params: { deployment_href?: string; description?: string }) =>
      ops.update(href, params),
    destroy: ops.destroy,
  };
}
