import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions, ShowOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { linksSchema, timestampSchema } from "../schemas.ts";
import { routeSchema } from "./routes.ts";

export const ROUTE_TABLES = "/api/route_tables";

/**
 * A route table as the real media type declares it (attributes `resource_uid`, `name`,
 * `description`, `created_at`, `updated_at`, `routes`; links `self`, `cloud`, `network`,
 * `routes`). `routes` (each a route representation) is shown by the `extended` view only.
 */
export const routeTableSchema = z.looseObject({
  resource_uid: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  routes: z.array(routeSchema).nullish(),
  links: linksSchema,
});
export type RouteTable = z.output<typeof routeTableSchema>;

export interface RouteTableCreate {
  cloud_href: string;
  network_href: string;
  name: string;
  description?: string;
}

/** The real update takes the name and the description only: the network is given at the create. */
export interface RouteTableUpdate {
  name?: string;
  description?: string;
}

export function routeTablesApi(client: ApiClient) {
  const ops = resourceOps(client, "route_table", routeTableSchema);
  return {
    index: (options?: IndexOptions) => ops.index(ROUTE_TABLES, options),
    show: (href: string, options?: ShowOptions) => ops.show(href, options),
    create: (params: RouteTableCreate) =>
      ops.create(ROUTE_TABLES, params, {
        filter: { network_href: params.network_href },
        match: (t) => t.name === params.name,
      }),
    update: (href: string, params: RouteTableUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
