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
} from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const PERMISSIONS = "/api/permissions";

export const permissionSchema = z.looseObject({
  role_title: z.string(),
  created_at: timestampSchema.nullable().optional(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type Permission = z.output<typeof permissionSchema>;

/**
 * Role grants. Ordering (spec 7): `observer` first, removed last; the service answers
 * 422 otherwise, which the client classifies as `conflict`.
 */
export function permissionsApi(client: ApiClient) {
  return {
    index: (options?: IndexOptions) => listAll(client, PERMISSIONS, permissionSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, permissionSchema, options),
    create: (params: { role_title: string; user_href: string }) =>
      createIn(
        client,
        PERMISSIONS,
        { permission: params },
        {
          find: () =>
            findHrefs(
              client,
              PERMISSIONS,
              permissionSchema,
              { user_href: params.user_href },
              (p) => p.role_title === params.role_title,
            ),
        },
      ),
    destroy: (href: string) => destroyAt(client, href),
  };
}
