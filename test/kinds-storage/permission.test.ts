import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import type { UserRecord } from "../../src/simulator/roles.ts";
import {
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startStack,
  waitFor,
  waitForCondition,
  waitForEventReason,
} from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  refusal,
  remove,
  serviceApi,
  simCalls,
  simErrors,
  simRows,
  startStorageOperator,
  waitForCond,
  waitGone,
} from "./helpers.ts";

let stack: Stack;
let operator: Operator;

beforeAll(async () => {
  stack = await startStack();
  operator = await startStorageOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

let nextUser = 100;
/** A user of the simulated account holding no role. */
function newUser(): string {
  const id = String(nextUser++);
  stack.sim.store.collection<UserRecord>("users").insert({
    id,
    email: `user${id}@example.com`,
    password: "password",
    first_name: "Test",
    last_name: id,
    company: "Example",
    refresh_token: null,
    settings: [],
  });
  return `/api/users/${id}`;
}

function rolesOf(userHref: string): string[] {
  const id = userHref.split("/").pop();
  return simRows<{ user_id: string; role_title: string }>(stack, "permissions")
    .filter((p) => p.user_id === id)
    .map((p) => p.role_title)
    .sort();
}

async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

describe("Permission", () => {
  it("admission refuses an unknown role and a changed role, naming the field", async () => {
    const ns = await readyNamespace();
    const user = newUser();
    const bad = await refusal(apply(stack, ns, "Permission", "bad", { userHref: user, roleTitle: "root" }));
    expect(bad.code).toBe(422);
    expect(bad.fields).toContain("spec.roleTitle");
    await apply(stack, ns, "Permission", "obs", { userHref: user, roleTitle: "observer" });
    await waitForCond(stack, ns, "Permission", "obs", "Ready", "True");
    const changed = await refusal(patch(stack, ns, "Permission", "obs", { spec: { roleTitle: "actor" } }));
    expect(changed.fields).toEqual(["spec.roleTitle"]);
    expect(changed.message).toMatch(/immutable/);
    await deleteAndWaitGone(stack, ns, "Permission", "obs");
    expect(rolesOf(user)).toEqual([]);
  });

  it("observer + actor + admin applied in reverse order converge; deleted together they leave no role and no error", async () => {
    const ns = await readyNamespace();
    const user = newUser();
    const errorsBefore = (await simErrors(stack, /permissions/)).reduce((n, r) => n + r.count, 0);
    await apply(stack, ns, "Permission", "admin", { userHref: user, roleTitle: "admin" });
    await apply(stack, ns, "Permission", "actor", { userHref: user, roleTitle: "actor" });
    // Without observer the others wait, saying why.
    await waitForCond(stack, ns, "Permission", "admin", "Ready", "False", {
      reason: "DependencyNotReady",
      message: /grant observer first/,
    });
    expect(rolesOf(user)).toEqual([]);
    await apply(stack, ns, "Permission", "observer", { userHref: user, roleTitle: "observer" });
    for (const name of ["observer", "actor", "admin"])
      await waitForCond(stack, ns, "Permission", name, "Ready", "True");
    expect(rolesOf(user)).toEqual(["actor", "admin", "observer"]);

    // Deleted together (observer first): observer waits until the others are revoked.
    await remove(stack, ns, "Permission", "observer");
    await remove(stack, ns, "Permission", "actor");
    await remove(stack, ns, "Permission", "admin");
    for (const name of ["observer", "actor", "admin"]) await waitGone(stack, ns, "Permission", name);
    expect(rolesOf(user)).toEqual([]);
    const errorsAfter = (await simErrors(stack, /permissions/)).reduce((n, r) => n + r.count, 0);
    expect(errorsAfter - errorsBefore, JSON.stringify(await simErrors(stack, /permissions/))).toBe(0);
  });

  it("a pre-existing observer grant is adopted (not created twice) and survives deletion of the resources", async () => {
    const ns = await readyNamespace();
    const user = newUser();
    const api = serviceApi(stack);
    const existing = await api.permissions.create({ role_title: "observer", user_href: user });
    await api.close();
    const posts = await simCalls(stack, "POST", /permissions/);

    await apply(stack, ns, "Permission", "observer", { userHref: user, roleTitle: "observer" });
    await apply(stack, ns, "Permission", "actor", { userHref: user, roleTitle: "actor" });
    const observer = await waitForCond(stack, ns, "Permission", "observer", "Ready", "True");
    await waitForCond(stack, ns, "Permission", "actor", "Ready", "True");
    expect(observer.status).toMatchObject({ href: existing, adopted: true });
    await waitForEventReason(stack, ns, "observer", "Adopted");
    expect(await simCalls(stack, "POST", /permissions/)).toBe(posts + 1); // actor only
    expect(rolesOf(user)).toEqual(["actor", "observer"]);

    await remove(stack, ns, "Permission", "observer");
    await remove(stack, ns, "Permission", "actor");
    await waitGone(stack, ns, "Permission", "observer");
    await waitGone(stack, ns, "Permission", "actor");
    expect(rolesOf(user)).toEqual(["observer"]);
    expect(await get(stack, ns, "Permission", "observer")).toBeUndefined();
  });

  it("an existing non-observer grant is adopted, and a role granted outside keeps observer from being revoked", async () => {
    const ns = await readyNamespace();
    const user = newUser();
    await apply(stack, ns, "Permission", "observer", { userHref: user, roleTitle: "observer" });
    await waitForCond(stack, ns, "Permission", "observer", "Ready", "True");
    const api = serviceApi(stack);
    await api.permissions.create({ role_title: "designer", user_href: user });
    await api.close();
    await remove(stack, ns, "Permission", "observer");
    await waitForCond(stack, ns, "Permission", "observer", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /observer is revoked last.*still holds designer/,
    });
    expect(rolesOf(user)).toEqual(["designer", "observer"]);
    // Declaring the outside grant adopts it; deleting that resource revokes it, and observer follows.
    await apply(stack, ns, "Permission", "designer", { userHref: user, roleTitle: "designer" });
    const designer = await waitForCond(stack, ns, "Permission", "designer", "Ready", "True");
    expect(designer.status?.adopted).toBe(true);
    await deleteAndWaitGone(stack, ns, "Permission", "designer");
    await waitGone(stack, ns, "Permission", "observer");
    expect(rolesOf(user)).toEqual([]);
  });
});

describe("Permission drift", () => {
  it("a resync reads every grant with one index call per account, and re-grants one revoked outside", async () => {
    const ns = await readyNamespace();
    const user = newUser();
    await apply(stack, ns, "Permission", "observer", { userHref: user, roleTitle: "observer" });
    await apply(stack, ns, "Permission", "library", { userHref: user, roleTitle: "library" });
    await waitForCond(stack, ns, "Permission", "library", "Ready", "True");
    const clean = (await operator.resyncNow()).find((r) => r.kind === "Permission")!;
    expect(clean).toMatchObject({ drifted: 0, missing: 0, individually: 0 });
    expect(clean.calls).toBe(clean.groups);

    const library = (await get(stack, ns, "Permission", "library"))!.status!.href!;
    const api = serviceApi(stack);
    await api.permissions.destroy(library);
    await api.close();
    expect((await operator.resyncNow()).find((r) => r.kind === "Permission")).toMatchObject({ missing: 1 });
    await waitFor("re-granted", async () => rolesOf(user).includes("library"));
    await waitFor("Recreated event", async () =>
      (await eventReasons(stack, ns, "library")).includes("Recreated"),
    );
  });
});
