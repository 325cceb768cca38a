import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { linksSchema, timestampSchema } from "../schemas.ts";

export const ROUTES = "/api/routes";

export const routeSchema = z.looseObject({
  description: z.string().nullish(),
  destination_cidr_block: z.string(),
  next_hop_type: z.string(),
  state: z.string().nullish(),
  resource_uid: z.string().nullish(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  links: linksSchema,
  cloud_specific_attributes: z
    .looseObject({ instance_tags: z.array(z.string()).optional(), priority: z.number().optional() })
    .nullish(),
});
export type Route = z.output<typeof routeSchema>;

export type NextHopType = "instance" | "network_interface" | "network_gateway" | "ip_string" | "url";

export interface RouteCreate {
  destination_cidr_block: string;
  next_hop_type: NextHopType;
  route_table_href: string;
  description?: string;
  next_hop_href?: string;
  next_hop_ip?: string;
  next_hop_url?: string;
  cloud_specific_attributes?: { instance_tags?: string[]; priority?: number };
}

export interface RouteUpdate {
  description?: string;
  destination_cidr_block?: string;
  next_hop_href?: string;
  next_hop_ip?: string;
  next_hop_type?: Exclude<NextHopType, "url">;
}

/**
 * Routes exist under the flat `/api/routes` and under a route table
 * (`<route table href>/routes`); pass `routeTableHref` to use the nested form.
 */
export function routesApi(client: ApiClient) {
  const ops = resourceOps(client, "route", routeSchema);
  const collection = (routeTableHref?: string) => (routeTableHref ? `${routeTableHref}/routes` : ROUTES);
  return {
    index: (options?: IndexOptions & { routeTableHref?: string }) =>
      ops.index(collection(options?.routeTableHref), options),
    show: ops.show,
    create: (params: RouteCreate, via: "flat" | "route_table" = "flat") =>
      ops.create(collection(via === "route_table" ? params.route_table_href : undefined), params, {
        path: ROUTES,
        filter: { route_table_href: params.route_table_href, next_hop_type: params.next_hop_type },
        match: (r) => r.destination_cidr_block === params.destination_cidr_block,
      }),
    update: (href: string, params: RouteUpdate) => ops.update(href, params),
    destroy: ops.destroy,
  };
}
