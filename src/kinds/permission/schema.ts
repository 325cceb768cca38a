import * as z from "zod";
import { immutable, managedSpec } from "../../runtime/sdk/index.ts";
import { ROLE_TITLES, type RoleTitle } from "../../service-model/index.ts";

export { ROLE_TITLES, type RoleTitle };

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
  [immutable("userHref"), immutable("roleTitle")],
  "Desired role grant. Both fields are immutable: create a new Permission to grant another role.",
);

export type PermissionSpec = z.output<typeof permissionSpecSchema>;
