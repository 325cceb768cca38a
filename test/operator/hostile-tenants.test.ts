import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation, FINALIZER } from "../../src/runtime/sdk/index.ts";
import { ALERT, I1 } from "../kinds-table/cases.ts";
import { startLooseIdProxy } from "../support/loose-id-proxy.testing.ts";
import {
  createCr,
  deleteAndWaitGone,
  deleteCr,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  simCount,
  simDeployments,
  simRecords,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitForConditionWith,
} from "./harness.ts";

/**
 * A tenant who may create custom resources in their own namespace, with an Account that reaches
 * the same service account as another team's, goes after the other team's objects: through
 * another spelling of their href, an href the service reads loosely, and `cloud.svc.io/replaces`.
 * Each takes nothing: no write, no delete, and no name of the other namespace's resources.
 */

let stack: Stack;
let proxy: { url: string; close(): Promise<void> };

beforeAll(async () => {
  stack = await startStack();
  proxy = await startLooseIdProxy(stack.sim.url);
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
});

async function readyNamespace(account: Record<string, unknown> = {}): Promise<string> {
  const ns = await namespaceWithAccount(stack, { account });
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

/** Every call that changes something in the service's deployments or alert specs. */
async function serviceWrites(): Promise<number> {
  let n = 0;
  for (const method of ["POST", "PUT", "DELETE"])
    n += await simCount(stack, method, /^\/api\/(deployments|alert_specs)/);
  return n;
}

/** A victim namespace's Ready Deployment `web` (named for its namespace in the service); its href. */
async function victimDeployment(ns: string): Promise<string> {
  await createCr(stack, ns, "Deployment", "web", { name: `web-${ns}`, description: "Web tier" });
  return (await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True")).status!.href!;
}

/** Deletes the attacker's Deployment `web` and waits for the operator to refuse it (InvalidHref again). */
async function deletionRefused(ns: string): Promise<void> {
  const refusals = () =>
    stack.logs.filter((l) => l.includes(`"namespace":"${ns}"`) && l.includes('"reason":"InvalidHref"'))
      .length;
  const before = refusals();
  await deleteCr(stack, ns, "Deployment", "web");
  await waitFor("the deletion to be refused the same way", async () => refusals() > before);
  expect((await getCr(stack, ns, "Deployment", "web"))?.metadata.deletionTimestamp).toBeDefined();
}

/** Without the bad annotation, the deletion has nothing of the service's to delete: it completes. */
async function goneOnceFixed(ns: string): Promise<void> {
  await patchCr(stack, ns, "Deployment", "web", {
    metadata: { annotations: { [Annotation.href]: null, [Annotation.reconcileRequestedAt]: "fixed" } },
  });
  await waitFor(
    "the attacker's resource to be gone",
    async () => !(await getCr(stack, ns, "Deployment", "web")),
  );
}

const description = (href: string) =>
  simDeployments(stack).find((d) => `/api/deployments/${d.id}` === href)?.description;

describe("hostile tenants: one canonical href", () => {
  it("another spelling of the victim's href (trailing slash) is Stalled InvalidHref; it neither writes nor, deleted, deletes", async () => {
    const victim = await readyNamespace();
    const attacker = await readyNamespace();
    const href = await victimDeployment(victim);
    const writes = await serviceWrites();
    await createCr(
      stack,
      attacker,
      "Deployment",
      "web",
      { description: "taken over" },
      { annotations: { [Annotation.href]: `${href}/` }, finalizers: [FINALIZER] },
    );
    await waitForConditionWith(stack, attacker, "Deployment", "web", "Stalled", "True", {
      reason: "InvalidHref",
      message: new RegExp(`^metadata.annotations\\[cloud.svc.io/href\\]: ${href}/ must not end with a slash`),
    });
    await deletionRefused(attacker);
    expect(description(href)).toBe("Web tier");
    expect(await serviceWrites()).toBe(writes);
    await goneOnceFixed(attacker);
    expect(description(href)).toBe("Web tier");
    expect(await serviceWrites()).toBe(writes);
    expect((await getCr(stack, victim, "Deployment", "web"))?.status?.href).toBe(href);
  });

  it("the CRD schema refuses an href spec field spelled with a query, naming the field", async () => {
    const ns = await readyNamespace();
    const refused = await createCr(stack, ns, "Network", "main", {
      cloudHref: "/api/clouds/1?x=1",
      cidrBlock: "10.10.0.0/16",
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(k8s.ApiException);
    expect((refused as k8s.ApiException<string>).code).toBe(422);
    expect(String((refused as k8s.ApiException<string>).body)).toContain("spec.cloudHref");
  });

  it("an href the service reads loosely (03 for 3) is not the object its self link names: refused, nothing written or deleted", async () => {
    const victim = await readyNamespace();
    const attacker = await readyNamespace({ endpoint: proxy.url });
    const href = await victimDeployment(victim);
    const loose = href.replace(/(\d+)$/, "0$1");
    const writes = await serviceWrites();
    await createCr(
      stack,
      attacker,
      "Deployment",
      "web",
      { description: "taken over" },
      { annotations: { [Annotation.href]: loose } },
    );
    const stalled = await waitForConditionWith(stack, attacker, "Deployment", "web", "Stalled", "True", {
      reason: "InvalidHref",
      message: new RegExp(`the service shows ${loose} as ${href}: that is its href`),
    });
    expect(stalled.status?.href).toBeUndefined();
    await deletionRefused(attacker);
    await goneOnceFixed(attacker);
    expect(description(href)).toBe("Web tier");
    expect(await serviceWrites()).toBe(writes);
  });
});

describe("hostile tenants: replaces is the operator's own word", () => {
  it("an AlertSpec annotated cloud.svc.io/replaces with the victim's href deletes nothing: Orphan, or the exact href with a finalizer", async () => {
    const victim = await readyNamespace();
    const attacker = await readyNamespace();
    await createCr(stack, victim, "AlertSpec", "cpu", { ...ALERT, subjectHref: I1 });
    const href = (
      await waitForCondition(stack, victim, "AlertSpec", "cpu", "Ready", "True", undefined, 30_000)
    ).status!.href!;
    const alerts = () => simRecords(stack, "alert_specs").filter((a) => href.endsWith(`/${a.id}`));
    expect(alerts()).toHaveLength(1);

    // The first repro: another spelling, with deletionPolicy Orphan.
    await createCr(
      stack,
      attacker,
      "AlertSpec",
      "spoof",
      { ...ALERT, subjectHref: I1, deletionPolicy: "Orphan" },
      { annotations: { "cloud.svc.io/replaces": `${href}/` } },
    );
    await waitForCondition(stack, attacker, "AlertSpec", "spoof", "Ready", "True", undefined, 30_000);
    // The second: the exact href, and a finalizer the user set.
    await createCr(
      stack,
      attacker,
      "AlertSpec",
      "exact",
      { ...ALERT, subjectHref: I1 },
      { annotations: { [Annotation.href]: href, "cloud.svc.io/replaces": href }, finalizers: [FINALIZER] },
    );
    const stalled = await waitForConditionWith(stack, attacker, "AlertSpec", "exact", "Stalled", "True", {
      reason: "AlreadyManaged",
    });
    const message = stalled.status?.conditions?.find((c) => c.type === "Stalled")?.message ?? "";
    expect(message).toContain("already managed by a resource in another namespace");
    expect(message).not.toContain(victim);
    await deleteAndWaitGone(stack, attacker, "AlertSpec", "exact");
    await deleteAndWaitGone(stack, attacker, "AlertSpec", "spoof");
    expect(alerts()).toHaveLength(1);
    expect((await getCr(stack, victim, "AlertSpec", "cpu"))?.status?.href).toBe(href);
    const events = await stack.core.listNamespacedEvent({ namespace: attacker });
    const said = events.items.map((e) => e.message ?? "").join("\n");
    expect(said).not.toMatch(/superseded/);
    expect(said).not.toContain(victim);
    // The cluster's admins find the owner in the operator's log: the href and the owner, at info.
    const line = stack.logs.find(
      (l) => l.includes('"reason":"AlreadyManaged"') && l.includes(`"namespace":"${attacker}"`),
    );
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 30, claimed: href, owner: `AlertSpec ${victim}/cpu` });
  });
});
