import { z } from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { linksSchema, timestampSchema } from "../schemas.ts";

export const ROUTE_TABLES = "/api/route_tables";

/**
 * A route table as the real media type declares it (attributes `resource_uid`, `name`,
 * `description`, `created_at`, `updated_at`, `routes`; links `self`, `cloud`, `network`,
 * `routes`). The seed spec does not show route tables; its routes name one by href.
 */
export const routeTableSchema = z.looseObject({
  resource_uid: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  links: linksSchema,
});
export type RouteTable = z.output<typeof routeTableSchema>;

/** Reads only: the operator follows a route's route table to its network (`network` link). */
export function routeTablesApi(client: ApiClient) {
  const ops = resourceOps(client, "route_table", routeTableSchema);
  return {
    index: (options?: IndexOptions) => ops.index(ROUTE_TABLES, options),
    show: ops.show,
  };
}
