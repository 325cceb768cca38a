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
  return {
    index: (options?: IndexOptions) => listAll(client, RESOURCE_GROUPS, resourceGroupSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, resourceGroupSchema, options),
    create: (params: ResourceGroupCreate) =>
      createIn(
        client,
        RESOURCE_GROUPS,
        { resource_group: params },
        {
          find: () =>
            findHrefs(
              client,
              RESOURCE_GROUPS,
              resourceGroupSchema,
              { cloud_href: params.cloud_href, name: params.name },
              (g) => g.name === params.name,
            ),
        },
      ),
    update: (href: string, params: { deployment_href?: string; description?: string }) =>
      updateAt(client, href, { resource_group: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
