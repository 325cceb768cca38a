import { isApiError } from "../../api/index.ts";
import type { LookupContext, ManagedStatus } from "../../runtime/sdk/index.ts";
import { DeletionBlockedError, DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { ClientCache } from "../shared/client-cache.ts";
import { accountWide, type TableBase, type TableObserved, tableKind } from "../shared/table-kind.ts";
import {
  PERMISSION_CREATE_ONLY,
  type PermissionClient,
  type PermissionSpec,
  permissionRows,
  permissionSpecSchema,
} from "./schema.ts";

type Base = TableBase<PermissionSpec, PermissionClient>;

/** A user's grants as the service shows them; the user link may be missing, the filter already chose the user. */
async function grantsOf(base: Base, client: PermissionClient, userHref: string): Promise<TableObserved[]> {
  const grants = await base.resource(client).index("", { filter: { user_href: userHref } });
  return grants
    .map((p) => base.record(p, ""))
    .filter((p) => p.userHref === undefined || p.userHref === userHref);
}

/** The user a grant of an unfiltered listing is for: its user link, else its href (/api/permissions/<user id>-<role>). */
export function userOf(grant: TableObserved): string | undefined {
  if (grant.userHref !== undefined) return grant.userHref as string;
  const id = /^\/api\/permissions\/(.+)-[a-z_]+$/.exec(grant.href)?.[1];
  return id === undefined ? undefined : `/api/users/${id}`;
}

/**
 * `userHref`'s grants: from the account's whole index listed through the operator's batched
 * reads when the lookup is offered it (one call for the grants of every user looked up at about
 * the same time, and for the just-created grants read then), else its own filtered listing.
 */
async function listGrants(
  base: Base,
  client: PermissionClient,
  userHref: string,
  ctx: LookupContext<TableObserved> | undefined,
): Promise<TableObserved[]> {
  if (!ctx) return grantsOf(base, client, userHref);
  return (await ctx.listIndex("")).filter((p) => userOf(p) === userHref);
}

export const Message = {
  observerFirst: (user: string) =>
    `grant observer first: ${user} does not hold the observer role yet (the service grants it before any other role)`,
  observerLast: (user: string, roles: string[]) =>
    `observer is revoked last: ${user} still holds ${roles.join(", ")}; waiting for those grants to be revoked`,
  adoptedObserver:
    "the observer grant existed before the operator adopted it, and the operator never revokes an observer grant it did not make",
} as const;

/** Pure: an adopted observer grant stays when its Permission goes. */
export function retainPermission(spec: PermissionSpec, status: ManagedStatus): string | undefined {
  return spec.roleTitle === "observer" && status.adopted === true ? Message.adoptedObserver : undefined;
}

/**
 * A role granted to a user (spec 5.3): a table kind, listed account-wide, whose grants of one
 * user order themselves: observer is granted first and revoked last; a grant that exists is
 * adopted; an adopted observer grant is never revoked.
 */
export function createPermissionKind(options: { orderRetryMs?: number } = {}) {
  // Permissions of the same user wake each other (siblings); the re-check only catches grants made outside.
  const retryMs = options.orderRetryMs ?? 10_000;
  // The latest listing of each user's grants, for a second: the observer-first check before a
  // create reads the one its reconcile's lookup (adoptExisting), or a sibling's, just made. Only
  // that check reads it (a grant revoked since is the create's 422, one made since what the
  // sibling wake-up brings); a lookup never does: after a create whose answer was lost, only a
  // listing sent after the reconcile started is sure to show it (LookupContext.listIndex).
  const recentGrants = new ClientCache<TableObserved[]>({ ttlMs: 1_000 });
  return tableKind({
    kind: "Permission",
    plural: "permissions",
    singular: "permission",
    shortNames: ["svcperm"],
    description:
      "A role granted to a user on the account. observer is granted before any other role of the user and revoked " +
      "last; an existing grant is adopted rather than created twice, and an adopted observer grant is never revoked.",
    schema: permissionSpecSchema,
    printerColumns: [
      { name: "User", type: "string", jsonPath: ".spec.userHref", description: "User href" },
      { name: "Role", type: "string", jsonPath: ".spec.roleTitle", description: "Role title" },
      {
        name: "Adopted",
        type: "boolean",
        jsonPath: ".status.adopted",
        description:
          "The grant existed before the operator adopted it (an adopted observer grant is never revoked)",
        priority: 1,
      },
    ],
    rows: permissionRows,
    resource: (client: PermissionClient) => accountWide(client.permissions),
    lookupBy: ["userHref", "roleTitle"],
    // The CRD's rules, in their order.
    immutable: PERMISSION_CREATE_ONLY,
    adoptExisting: true,
    siblings: (spec) => spec.userHref,
    // The other roles wait for observer's Ready; no grant waits for another role's.
    leadsSiblings: (spec) => spec.roleTitle === "observer",
    retain: retainPermission,
    overrides: {
      async lookup(base, client, desired, ctx) {
        const user = desired.userHref as string;
        const grants = listGrants(base, client, user, ctx);
        recentGrants.put(client, user, grants);
        return (await grants).filter((p) => p.roleTitle === desired.roleTitle);
      },
      // Before the create-pending intent is written: a role that waits for observer has no create
      // to look up afterwards, and no intent write to make.
      async beforeWrite(base, client, desired, fields) {
        if (fields !== undefined || desired.roleTitle === "observer") return;
        const user = desired.userHref as string;
        // The lookup just listed them (adoptExisting): that listing, not a second one. A grant
        // revoked since is the create's 422.
        const grants = await (recentGrants.peek(client, user) ?? grantsOf(base, client, user));
        if (!grants.some((p) => p.roleTitle === "observer"))
          throw new DependencyNotReadyError(Message.observerFirst(user), retryMs);
      },
      async create(base, client, desired) {
        try {
          return await base.create(client, desired);
        } catch (error) {
          // 422 "A user must have the observer role.": observer was revoked since the check.
          if (desired.roleTitle !== "observer" && isApiError(error) && error.kind === "conflict")
            throw new DependencyNotReadyError(
              `${Message.observerFirst(desired.userHref as string)}: ${error.message}`,
              retryMs,
            );
          throw error;
        }
      },
      async delete(base, client, href, observed) {
        const user = (observed.userHref as string | undefined) ?? "the user";
        if (observed.roleTitle === "observer" && observed.userHref !== undefined) {
          const others = (await grantsOf(base, client, user)).filter((p) => p.roleTitle !== "observer");
          if (others.length > 0)
            throw new DeletionBlockedError(
              Message.observerLast(user, others.map((p) => p.roleTitle as string).sort()),
              retryMs,
            );
        }
        try {
          await base.resource(client).destroy(href);
        } catch (error) {
          // 422: a role was granted since the check; observer waits until it is revoked.
          if (observed.roleTitle === "observer" && isApiError(error) && error.kind === "conflict")
            throw new DeletionBlockedError(Message.observerLast(user, [error.message]), retryMs);
          throw error;
        }
      },
    },
  });
}

export const permissionKind = createPermissionKind();
