import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import { BatchedReads } from "../../runtime/reconcile/index.ts";
import type { AnyManagedKind, LookupContext } from "../../runtime/sdk/index.ts";
import { DeletionBlockedError, DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { admitter } from "../shared/admission.testing.ts";
import type { TableObserved } from "../shared/table-kind.ts";
import { createPermissionKind, retainPermission, userOf } from "./kind.ts";
import { type PermissionClient, permissionSpecSchema, ROLE_TITLES } from "./schema.ts";

const kind = createPermissionKind({ orderRetryMs: 10 });
const admit = admitter(kind);

describe("Permission CRD admission (CEL)", () => {
  it("offers exactly the 17 roles of spec 5.3", () => {
    expect(ROLE_TITLES).toHaveLength(17);
    for (const role of ROLE_TITLES) expect(admit({ userHref: "/api/users/2", roleTitle: role })).toEqual([]);
  });

  it.each([
    {
      reason: "an unknown role",
      spec: { userHref: "/api/users/2", roleTitle: "root" },
      field: "spec.roleTitle",
    },
    { reason: "a missing user", spec: { roleTitle: "observer" }, field: "spec.userHref" },
    {
      reason: "a user href of another kind",
      spec: { userHref: "/api/deployments/2", roleTitle: "observer" },
      field: "spec.userHref",
    },
  ])("rejects $reason, naming $field", ({ spec, field }) => {
    expect(admit(spec).map((c) => c.field)).toContain(field);
  });

  it.each([
    { field: "roleTitle", change: { roleTitle: "actor" } },
    { field: "userHref", change: { userHref: "/api/users/3" } },
  ])("$field is immutable (transition rule)", ({ field, change }) => {
    const old = { userHref: "/api/users/2", roleTitle: "observer" };
    const causes = admit({ ...old, ...change }, old);
    expect(causes.map((c) => c.field)).toEqual([`spec.${field}`]);
    expect(causes[0]?.message).toMatch(/immutable/);
  });
});

/** A grant as the real service shows it. */
const grant = (href: string, role: string, user: string) => ({
  role_title: role,
  created_at: null,
  links: [
    { rel: "self", href },
    { rel: "user", href: user },
  ],
});

/** A fake account: grants by user, refusing what the service refuses (observer first, removed last). */
function fakeAccount(initial: [string, string][] = []) {
  const grants = new Map<string, ReturnType<typeof grant>>();
  const calls: string[] = [];
  /** Each listing: the user filtered on, or "all". */
  const listings: string[] = [];
  const userOfGrant = (g: ReturnType<typeof grant>) => g.links[1]!.href;
  const add = (user: string, role: string) => {
    const href = `/api/permissions/${user.split("/").pop()}-${role}`;
    grants.set(href, grant(href, role, user));
    return href;
  };
  for (const [u, r] of initial) add(u, r);
  const permissions = {
    show: async (href: string) => grants.get(href),
    index: async (options?: { filter?: { user_href?: string } }) => {
      const user = options?.filter?.user_href;
      listings.push(user ?? "all");
      return [...grants.values()].filter((g) => user === undefined || userOfGrant(g) === user);
    },
    create: async (p: { role_title: string; user_href: string }) => {
      calls.push(`create ${p.role_title}`);
      const held = [...grants.values()].some(
        (g) => userOfGrant(g) === p.user_href && g.role_title === "observer",
      );
      if (p.role_title !== "observer" && !held) throw new Error("422 A user must have the observer role.");
      return add(p.user_href, p.role_title);
    },
    destroy: async (href: string) => {
      calls.push(`destroy ${href}`);
      grants.delete(href);
    },
  };
  const client = { permissions } as unknown as PermissionClient & { permissions: typeof permissions };
  /** A grant as the kind observes it. */
  const observed = async (href: string) => (await kind.observe(client, href, desired("", "")))!;
  return { client, grants, calls, listings, observed };
}

/** The desired state of a grant (the table's: each row's value, and no alternative field). */
const desired = (userHref: string, roleTitle: string) => ({ userHref, roleTitle, fields: {} });

const U = "/api/users/2";

describe("permission kind", () => {
  it("a non-observer role waits (DependencyNotReady, 'grant observer first') before its create until the user holds observer", async () => {
    const account = fakeAccount();
    const actor = desired(U, "actor");
    // beforeWrite: the runtime asks it before the create-pending intent, so a waiting role writes none.
    const error = await kind.beforeWrite!(account.client, actor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toMatch(/grant observer first/);
    expect(account.calls).toEqual([]);
    await kind.beforeWrite!(account.client, desired(U, "observer"));
    await kind.create(account.client, desired(U, "observer"));
    await kind.beforeWrite!(account.client, actor);
    expect(await kind.create(account.client, actor)).toBe("/api/permissions/2-actor");
    // An update's check (fields given) asks nothing: there is no update of a grant.
    await kind.beforeWrite!(fakeAccount().client, actor, ["roleTitle"]);
  });

  it("grants looked up together share one listing through the lookup context, and the observer check reads it", async () => {
    const account = fakeAccount([[U, "observer"]]);
    const k = createPermissionKind();
    const reads = new BatchedReads({ windowMs: 5 });
    const ctx: LookupContext<TableObserved> = {
      listIndex: (scope) => reads.list(k as AnyManagedKind, "ns/default", account.client, scope) as never,
    };
    const roles = ["observer", "actor", "designer", "library"] as const;
    const found = await Promise.all(
      roles.map((roleTitle) => k.lookup(account.client, desired(U, roleTitle), ctx)),
    );
    expect(found.map((f) => f.map((p) => p.href))).toEqual([["/api/permissions/2-observer"], [], [], []]);
    for (const roleTitle of roles.slice(1)) await k.beforeWrite!(account.client, desired(U, roleTitle));
    // Four lookups and three checks: one index call (it was one per lookup, and one per check).
    expect(account.listings).toEqual(["all"]);
  });

  it("a grant of the whole index without a user link is the user's its href names", async () => {
    const grant = { href: "/api/permissions/12-ss_end_user", roleTitle: "ss_end_user", createdAt: null };
    expect(userOf(grant)).toBe("/api/users/12");
    expect(userOf({ ...grant, userHref: "/api/users/3" })).toBe("/api/users/3");
    expect(userOf({ ...grant, href: "/api/permissions/odd" })).toBeUndefined();
  });

  it("an observer grant that already exists in the account lets other roles proceed", async () => {
    const account = fakeAccount([[U, "observer"]]);
    await kind.create(account.client, desired(U, "admin"));
    expect(account.calls).toEqual(["create admin"]);
  });

  it("revoking observer waits (DeletionBlocked) while the user holds other roles", async () => {
    const account = fakeAccount([
      [U, "observer"],
      [U, "actor"],
    ]);
    const observer = await account.observed("/api/permissions/2-observer");
    const error = await kind.delete(account.client, observer.href, observer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionBlockedError);
    expect((error as Error).message).toMatch(/observer is revoked last.*still holds actor/);
    expect(account.calls).toEqual([]);
    await kind.delete(
      account.client,
      "/api/permissions/2-actor",
      await account.observed("/api/permissions/2-actor"),
    );
    await kind.delete(account.client, observer.href, observer);
    expect(account.grants.size).toBe(0);
  });

  it("a 422 from the service (a grant changed since the check) waits instead of stalling", async () => {
    const refused = new ApiError({
      kind: "conflict",
      code: ApiErrorCodes.conflict,
      method: "POST",
      href: "/api/permissions",
      message: "A user must have the observer role.",
    });
    const account = fakeAccount([[U, "observer"]]);
    account.client.permissions.create = () => Promise.reject(refused);
    await expect(kind.create(account.client, desired(U, "actor"))).rejects.toBeInstanceOf(
      DependencyNotReadyError,
    );
    const observer = await account.observed("/api/permissions/2-observer");
    account.client.permissions.destroy = () => Promise.reject(refused);
    await expect(kind.delete(account.client, observer.href, observer)).rejects.toBeInstanceOf(
      DeletionBlockedError,
    );
  });

  it("an existing grant is adopted (lookup finds it) rather than created twice", async () => {
    const account = fakeAccount([
      [U, "observer"],
      ["/api/users/3", "observer"],
    ]);
    expect(kind.adoptExisting).toBe(true);
    const found = await kind.lookup(account.client, desired(U, "observer"));
    expect(found.map((p) => p.href)).toEqual(["/api/permissions/2-observer"]);
  });

  it("an adopted observer grant is retained on deletion; a created one, or another adopted role, is not", () => {
    const spec = (roleTitle: string) => permissionSpecSchema.parse({ userHref: U, roleTitle });
    expect(retainPermission(spec("observer"), { adopted: true })).toMatch(
      /never revokes an observer grant it did not make/,
    );
    expect(retainPermission(spec("observer"), {})).toBeUndefined();
    expect(retainPermission(spec("actor"), { adopted: true })).toBeUndefined();
  });

  it("a user's Permissions are siblings: they wake each other on Ready and deletion", () => {
    const spec = permissionSpecSchema.parse({ userHref: U, roleTitle: "actor" });
    expect(kind.siblings?.(spec)).toBe(U);
    expect(kind.references(spec)).toEqual([]);
  });

  it("diff: both fields are immutable and compared", async () => {
    const account = fakeAccount([[U, "actor"]]);
    const observed = await account.observed("/api/permissions/2-actor");
    expect(kind.diff(desired(U, "actor"), observed)).toEqual([]);
    expect(kind.diff(desired(U, "admin"), observed).map((d) => d.field)).toEqual(["roleTitle"]);
    expect(kind.immutable).toEqual(["userHref", "roleTitle"]);
    expect(kind.replace).toBeUndefined();
  });
});
