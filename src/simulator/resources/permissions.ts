import * as z from "zod";
import { actionNotAllowed, observerFirst } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { resolveHref } from "../hrefs.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access, hasRole, type PermissionRecord, ROLE_TITLES, type UserRecord } from "../roles.ts";
import { seedTimestamp } from "../seed.ts";
import { seedPermissions } from "../seed-data.ts";
import type { ParamSpec } from "../validate.ts";
import { accountHref, userHref } from "./accounts.ts";

/**
 * Permissions (spec 4.16): role grants to users. The id is `<user_id>-<role_title>`;
 * `observer` must be granted first and removed last (422 `A user must have the observer role.`).
 */

export const permissionSchema = z
  .object({
    user_id: z.union([z.string().min(1), z.number().int()]).transform(String),
    role_title: z.enum(ROLE_TITLES),
    created_at: seedTimestamp.nullable().default(null),
    id: z.string().optional(),
  })
  .strict()
  .transform((p, ctx) => {
    const id = `${p.user_id}-${p.role_title}`;
    if (p.id !== undefined && p.id !== id) {
      ctx.addIssue({
        code: "custom",
        path: ["id"],
        message: `must be '${id}' (<user_id>-<role_title>) or omitted`,
      });
    }
    return { id, user_id: p.user_id, role_title: p.role_title, created_at: p.created_at };
  });

export const permissionHref = (id: string) => `/api/permissions/${id}`;

export function permissionRepresentation(p: PermissionRecord, accountId: string): Representation {
  return {
    id: p.id,
    role_title: p.role_title,
    created_at: formatTimestamp(p.created_at),
    // A destroyed grant is gone from the store, so no permission shown is deleted.
    deleted_at: null,
    links: [
      link("self", permissionHref(p.id)),
      link("account", accountHref(accountId)),
      link("user", userHref(p.user_id)),
    ],
    actions: [],
  };
}

const FILTERS: FilterSpec<PermissionRecord> = {
  user_href: { partial: false, get: (p) => userHref(p.user_id) },
};

const createSpec: ParamSpec = {
  permission: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      role_title: { type: "String", required: true, blank: false, values: ROLE_TITLES },
      user_href: { type: "String", required: true, blank: false },
    },
  },
};

const USER = { template: "/api/users/:id", collection: "users", label: "User" };

export const permissionsResource = defineResource({
  name: "permissions",
  collections: { permissions: permissionSchema },
  defaultSeed: seedPermissions,
  register(sim) {
    const permissions = () => sim.store.collection<PermissionRecord>("permissions");
    // Not shown in the spec: reading needs observer, granting and revoking need admin.
    const read = access.anyOf("observer");
    const write = access.anyOf("admin");

    sim.route({
      method: "GET",
      path: "/api/permissions",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        const list = ctx.filter(permissions().values(), FILTERS);
        const account = ctx.principal!.accountId;
        return ctx.many(
          "permission",
          "permissions",
          list.map((p) => permissionRepresentation(p, account)),
        );
      },
    });

    sim.route({
      method: "GET",
      path: "/api/permissions/:id",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        const p = permissions().require(ctx.param("id"), "Permission");
        return ctx.one("permission", permissionRepresentation(p, ctx.principal!.accountId));
      },
    });

    sim.route({
      method: "POST",
      path: "/api/permissions",
      access: write,
      handler(ctx) {
        const { permission } = ctx.validate<{ permission: { role_title: string; user_href: string } }>(
          createSpec,
        );
        const user = resolveHref<UserRecord>(ctx.store, "permission[user_href]", permission.user_href, USER);
        const id = `${user.id}-${permission.role_title}`;
        if (permissions().get(id)) {
          throw actionNotAllowed(`User ${user.id} already has the ${permission.role_title} role`);
        }
        if (permission.role_title !== "observer" && !hasRole(ctx.store, user.id, "observer"))
          throw observerFirst();
        permissions().insert({
          id,
          user_id: user.id,
          role_title: permission.role_title,
          created_at: ctx.clock.now(),
        });
        return ctx.created(permissionHref(id));
      },
    });

    sim.route({
      method: "DELETE",
      path: "/api/permissions/:id",
      access: write,
      handler(ctx) {
        const p = permissions().require(ctx.param("id"), "Permission");
        if (p.role_title === "observer") {
          const others = permissions().find((o) => o.user_id === p.user_id && o.role_title !== "observer");
          if (others) throw observerFirst();
        }
        permissions().delete(p.id);
        return ctx.noContent();
      },
    });
  },
});
