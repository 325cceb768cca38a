import { isApiError, type ServiceApi } from "../../api/index.ts";
import type { Permission } from "../../api/resources/permissions.ts";
import type { LookupContext, ManagedKind, ManagedStatus } from "../../runtime/sdk/index.ts";
import { DeletionBlockedError, DependencyNotReadyError, hrefLinks } from "../../runtime/sdk/index.ts";
import { ClientCache } from "../shared/client-cache.ts";
import { orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { type PermissionSpec, permissionSpecSchema } from "./schema.ts";

export interface PermissionObserved {
  href: string;
  roleTitle: string;
  userHref?: string;
  createdAt: string | null;
}

export interface PermissionDesired {
  userHref: string;
  roleTitle: string;
}

export interface PermissionCalls {
  show(href: string): Promise<PermissionObserved | undefined>;
  /** Every grant, or those of one user; `wanted`: only those grants are needed (ManagedKind.index.list). */
  index(userHref?: string, wanted?: ReadonlySet<string>): Promise<PermissionObserved[]>;
  create(params: { role_title: string; user_href: string }): Promise<string>;
  destroy(href: string): Promise<void>;
}

/** A grant's fields: both are create-only (the href names user and role; there is no update). */
export const permissionFields = new FieldTable<PermissionDesired, PermissionObserved>([
  { spec: "roleTitle", param: "role_title", attribute: "role_title", write: "create" },
  rows.createOnlyLink("userHref", "user", "user_href"),
  ...rows.read({ createdAt: "created_at" }),
]);

export const toPermissionObserved = (p: Permission): PermissionObserved => permissionFields.observe(p);

export function permissionCalls(api: ServiceApi): PermissionCalls {
  return {
    show: async (href) => {
      const p = await orUndefined(api.permissions.show(href));
      return p && toPermissionObserved(p);
    },
    index: async (userHref, wanted) =>
      (await api.permissions.index({ filter: userHref ? { user_href: userHref } : undefined, wanted })).map(
        toPermissionObserved,
      ),
    create: (params) => api.permissions.create(params),
    destroy: (href) => api.permissions.destroy(href),
  };
}

export type PermissionClient = ServiceApi | { permissions: PermissionCalls };

function calls(client: PermissionClient): PermissionCalls {
  return "client" in client ? permissionCalls(client) : (client.permissions as PermissionCalls);
}

/** A user's grants as the service shows them; the user link may be missing, the filter already chose the user. */
async function grantsOf(client: PermissionClient, userHref: string): Promise<PermissionObserved[]> {
  return (await calls(client).index(userHref)).filter(
    (p) => p.userHref === undefined || p.userHref === userHref,
  );
}

/** The user a grant of an unfiltered listing is for: its user link, else its href (/api/permissions/<user id>-<role>). */
export function userOf(grant: PermissionObserved): string | undefined {
  if (grant.userHref !== undefined) return grant.userHref;
  const id = /^\/api\/permissions\/(.+)-[a-z_]+$/.exec(grant.href)?.[1];
  return id === undefined ? undefined : `/api/users/${id}`;
}

/**
 * `userHref`'s grants: from the account's whole index listed through the operator's batched
 * reads when the lookup is offered it (one call for the grants of every user looked up at about
 * the same time, and for the just-created grants read then), else its own filtered listing.
 */
async function listGrants(
  client: PermissionClient,
  userHref: string,
  ctx: LookupContext<PermissionObserved> | undefined,
): Promise<PermissionObserved[]> {
  if (!ctx) return grantsOf(client, userHref);
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

export const diffPermission = (d: PermissionDesired, o: PermissionObserved) => permissionFields.diff(d, o);

/** Pure: an adopted observer grant stays when its Permission goes. */
export function retainPermission(spec: PermissionSpec, status: ManagedStatus): string | undefined {
  return spec.roleTitle === "observer" && status.adopted === true ? Message.adoptedObserver : undefined;
}

export function createPermissionKind(
  options: { orderRetryMs?: number } = {},
): ManagedKind<PermissionSpec, PermissionDesired, PermissionObserved, PermissionClient> {
  // Permissions of the same user wake each other (siblings); the re-check only catches grants made outside.
  const retryMs = options.orderRetryMs ?? 10_000;
  // The latest listing of each user's grants, for a second: the observer-first check before a
  // create reads the one its reconcile's lookup (adoptExisting), or a sibling's, just made. Only
  // that check reads it (a grant revoked since is the create's 422, one made since what the
  // sibling wake-up brings); a lookup never does: after a create whose answer was lost, only a
  // listing sent after the reconcile started is sure to show it (LookupContext.listIndex).
  const recentGrants = new ClientCache<PermissionObserved[]>({ ttlMs: 1_000 });
  return {
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
    references: () => [],
    links: (spec) => hrefLinks(spec, ["userHref"]),
    siblings: (spec) => spec.userHref,
    // The other roles wait for observer's Ready; no grant waits for another role's.
    leadsSiblings: (spec) => spec.roleTitle === "observer",
    desired: (spec) => ({ userHref: spec.userHref, roleTitle: spec.roleTitle }),
    observe: (client, href) => calls(client).show(href),
    async lookup(client, desired, ctx) {
      const grants = listGrants(client, desired.userHref, ctx);
      recentGrants.put(client, desired.userHref, grants);
      return (await grants).filter((p) => p.roleTitle === desired.roleTitle);
    },
    adoptExisting: true,
    hrefOf: (o) => o.href,
    // Before the create-pending intent is written: a role that waits for observer has no create
    // to look up afterwards, and no intent write to make.
    async beforeWrite(client, desired, fields) {
      if (fields !== undefined || desired.roleTitle === "observer") return;
      // The lookup just listed them (adoptExisting): that listing, not a second one. A grant
      // revoked since is the create's 422.
      const grants = await (recentGrants.peek(client, desired.userHref) ??
        grantsOf(client, desired.userHref));
      if (!grants.some((p) => p.roleTitle === "observer"))
        throw new DependencyNotReadyError(Message.observerFirst(desired.userHref), retryMs);
    },
    async create(client, desired) {
      try {
        return await calls(client).create(permissionFields.createParams(desired));
      } catch (error) {
        // 422 "A user must have the observer role.": observer was revoked since the check.
        if (desired.roleTitle !== "observer" && isApiError(error) && error.kind === "conflict")
          throw new DependencyNotReadyError(
            `${Message.observerFirst(desired.userHref)}: ${error.message}`,
            retryMs,
          );
        throw error;
      }
    },
    update() {
      // Unreachable: both fields are immutable.
      return Promise.reject(new Error("permissions cannot be updated"));
    },
    async delete(client, href, observed) {
      if (observed.roleTitle === "observer") {
        const user = observed.userHref ?? "the user";
        const others = observed.userHref
          ? (await grantsOf(client, observed.userHref)).filter((p) => p.roleTitle !== "observer")
          : [];
        if (others.length > 0)
          throw new DeletionBlockedError(
            Message.observerLast(user, others.map((p) => p.roleTitle).sort()),
            retryMs,
          );
      }
      try {
        await calls(client).destroy(href);
      } catch (error) {
        // 422: a role was granted since the check; observer waits until it is revoked.
        if (observed.roleTitle === "observer" && isApiError(error) && error.kind === "conflict")
          throw new DeletionBlockedError(
            Message.observerLast(observed.userHref ?? "the user", [error.message]),
            retryMs,
          );
        throw error;
      }
    },
    retain: retainPermission,
    diff: diffPermission,
    immutable: ["userHref", "roleTitle"],
    atProvider: (o) => permissionFields.atProvider(o),
    index: {
      scope: () => "",
      list: (client, _scope, wanted) => calls(client).index(undefined, wanted),
    },
  };
}

export const permissionKind = createPermissionKind();
