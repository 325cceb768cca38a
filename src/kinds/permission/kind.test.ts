import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import { BatchedReads } from "../../runtime/reconcile/index.ts";
import type { AnyManagedKind, LookupContext } from "../../runtime/sdk/index.ts";
import { DeletionBlockedError, DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { admitter } from "../shared/admission.testing.ts";
import {
  createPermissionKind,
  diffPermission,
  type PermissionCalls,
  type PermissionObserved,
  retainPermission,
  userOf,
} from "./kind.ts";
import { permissionSpecSchema, ROLE_TITLES } from "./schema.ts";

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

/** A fake account: grants by user, refusing what the service refuses (observer first, removed last). */
function fakeAccount(initial: [string, string][] = []) {
  const grants = new Map<string, PermissionObserved>();
  const calls: string[] = [];
  /** Each listing: the user filtered on, or "all". */
  const listings: string[] = [];
  const add = (user: string, role: string) => {
    const href = `/api/permissions/${user.split("/").pop()}-${role}`;
    grants.set(href, { href, roleTitle: role, userHref: user, createdAt: null });
    return href;
  };
  for (const [u, r] of initial) add(u, r);
  const permissions: PermissionCalls = {
    show: async (href) => grants.get(href),
    index: async (user) => {
      listings.push(user ?? "all");
      return [...grants.values()].filter((g) => user === undefined || g.userHref === user);
    },
    create: async (p) => {
      calls.push(`create ${p.role_title}`);
      const held = [...grants.values()].some((g) => g.userHref === p.user_href && g.roleTitle === "observer");
      if (p.role_title !== "observer" && !held) throw new Error("422 A user must have the observer role.");
      return add(p.user_href, p.role_title);
    },
    destroy: async (href) => {
      calls.push(`destroy ${href}`);
      grants.delete(href);
    },
  };
  return { client: { permissions }, grants, calls, listings };
}

const U = "/api/users/2";

describe("permission kind", () => {
  it("a non-observer role waits (DependencyNotReady, 'grant observer first') before its create until the user holds observer", async () => {
    const account = fakeAccount();
    const actor = { userHref: U, roleTitle: "actor" } as const;
    // beforeWrite: the runtime asks it before the create-pending intent, so a waiting role writes none.
    const error = await kind.beforeWrite!(account.client, actor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toMatch(/grant observer first/);
    expect(account.calls).toEqual([]);
    await kind.beforeWrite!(account.client, { userHref: U, roleTitle: "observer" });
    await kind.create(account.client, { userHref: U, roleTitle: "observer" });
    await kind.beforeWrite!(account.client, actor);
    expect(await kind.create(account.client, actor)).toBe("/api/permissions/2-actor");
    // An update's check (fields given) asks nothing: there is no update of a grant.
    await kind.beforeWrite!(fakeAccount().client, actor, ["roleTitle"]);
  });

  it("grants looked up together share one listing through the lookup context, and the observer check reads it", async () => {
    const account = fakeAccount([[U, "observer"]]);
    const k = createPermissionKind();
    const reads = new BatchedReads({ windowMs: 5 });
    const ctx: LookupContext<PermissionObserved> = {
      listIndex: (scope) => reads.list(k as AnyManagedKind, "ns/default", account.client, scope) as never,
    };
    const roles = ["observer", "actor", "designer", "library"] as const;
    const found = await Promise.all(
      roles.map((roleTitle) => k.lookup(account.client, { userHref: U, roleTitle }, ctx)),
    );
    expect(found.map((f) => f.map((p) => p.href))).toEqual([["/api/permissions/2-observer"], [], [], []]);
    for (const roleTitle of roles.slice(1)) await k.beforeWrite!(account.client, { userHref: U, roleTitle });
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
    await kind.create(account.client, { userHref: U, roleTitle: "admin" });
    expect(account.calls).toEqual(["create admin"]);
  });

  it("revoking observer waits (DeletionBlocked) while the user holds other roles", async () => {
    const account = fakeAccount([
      [U, "observer"],
      [U, "actor"],
    ]);
    const observer = account.grants.get("/api/permissions/2-observer")!;
    const error = await kind.delete(account.client, observer.href, observer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionBlockedError);
    expect((error as Error).message).toMatch(/observer is revoked last.*still holds actor/);
    expect(account.calls).toEqual([]);
    await kind.delete(
      account.client,
      "/api/permissions/2-actor",
      account.grants.get("/api/permissions/2-actor")!,
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
    await expect(kind.create(account.client, { userHref: U, roleTitle: "actor" })).rejects.toBeInstanceOf(
      DependencyNotReadyError,
    );
    account.client.permissions.destroy = () => Promise.reject(refused);
    const observer = account.grants.get("/api/permissions/2-observer")!;
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
    const found = await kind.lookup(account.client, { userHref: U, roleTitle: "observer" });
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

  it("diff: both fields are immutable and compared", () => {
    const observed = { href: "/api/permissions/2-actor", roleTitle: "actor", userHref: U, createdAt: null };
    expect(diffPermission({ userHref: U, roleTitle: "actor" }, observed)).toEqual([]);
    expect(diffPermission({ userHref: U, roleTitle: "admin" }, observed).map((d) => d.field)).toEqual([
      "roleTitle",
    ]);
    expect(kind.immutable).toEqual(["userHref", "roleTitle"]);
    expect(kind.replace).toBeUndefined();
  });
});
