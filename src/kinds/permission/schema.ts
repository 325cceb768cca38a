import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { immutable, managedSpec } from "../../runtime/sdk/index.ts";
import { ROLE_TITLES, type RoleTitle } from "../../service-model/index.ts";
import { rows } from "../shared/table.ts";
import type { TableRow } from "../shared/table-kind.ts";

export { ROLE_TITLES, type RoleTitle };

export type PermissionClient = Pick<ServiceApi, "permissions">;

/** Both fields: the href names user and role, and there is no update. */
export const PERMISSION_CREATE_ONLY = ["userHref", "roleTitle"] as const;

/** A grant's fields: both are create-only (the href names user and role; there is no update). */
export const permissionRows: TableRow<PermissionClient>[] = [
  { spec: "roleTitle", param: "role_title", attribute: "role_title", write: "create" },
  rows.createOnlyLink("userHref", "user", "user_href"),
  ...rows.read({ createdAt: "created_at" }),
];

export const permissionSpecSchema = managedSpec(
  {
    userHref: z
      .string()
      .regex(/^\/api\/users\/[^/\s]+$/, "must be a user href such as /api/users/2")
      .describe("Href of the user the role is granted to (/api/users/<id>). Immutable."),
    roleTitle: z
      .enum(ROLE_TITLES)
      .describe(
        "Role granted on the account. observer is granted before any other role of the user and revoked last; " +
          "a grant that already exists is adopted, and an adopted observer grant is never revoked. Immutable.",
      ),
  },
  PERMISSION_CREATE_ONLY.map(immutable),
  "Desired role grant. Both fields are immutable: create a new Permission to grant another role.",
);

export type PermissionSpec = z.output<typeof permissionSpecSchema>;
