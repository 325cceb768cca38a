import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "permission", permissionSchema);
  return {
    index: (options?: IndexOptions) => ops.index(PERMISSIONS, options),
    show: ops.show,
    create: (params: { role_title: string; user_href: string }) =>
      ops.create(PERMISSIONS, params, {
        filter: { user_href: params.user_href },
        match: (p) => p.role_title === params.role_title,
      }),
    destroy: ops.destroy,
  };
}
