import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation, FINALIZER } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  deleteAndWaitGone,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  serviceApi,
  simCount,
  simDeployments,
  simRecords,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitForConditionWith,
  waitForEventReason,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

/** Every call that changes something in the service's deployments or networks. */
const WRITES = /^\/api\/(deployments|networks)/;
async function serviceWrites(): Promise<number> {
  let n = 0;
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) n += await simCount(stack, method, WRITES);
  return n;
}

const deployment = (href: string) => simDeployments(stack).find((d) => `/api/deployments/${d.id}` === href);

/** A namespace whose Account `default` is Ready: every one reaches the simulator's account 1. */
async function readyNamespace(name?: string): Promise<string> {
  const ns = await namespaceWithAccount(stack, { name });
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

describe("one owner per cloud object", () => {
  it("a Deployment of another namespace annotated with demo/web's href never adopts, rewrites or deletes it; a claimant adopts once demo/web lets go", async () => {
    const demo = await readyNamespace("demo");
    const teamb = await readyNamespace("teamb");
    const teamc = await readyNamespace("teamc");
    const teamd = await readyNamespace("teamd");
    await createCr(stack, demo, "Deployment", "web", { description: "Web tier" });
    const web = await waitForCondition(stack, demo, "Deployment", "web", "Ready", "True");
    const href = web.status!.href!;
    await createCr(stack, demo, "Network", "main", {
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.10.0.0/16",
      deploymentRef: { name: "web" },
    });
    const main = await waitForCondition(stack, demo, "Network", "main", "Ready", "True");
    expect(main.status?.atProvider?.deploymentHref).toBe(href);
    const deployments = simDeployments(stack).length;
    const writes = await serviceWrites();

    // The finding: teamb/web names the href of demo/web's object.
    await createCr(
      stack,
      teamb,
      "Deployment",
      "web",
      { description: "taken over" },
      { annotations: { [Annotation.href]: href } },
    );
    // teamc/web carries the finalizer, as a resource that held the object before this check did.
    await createCr(
      stack,
      teamc,
      "Deployment",
      "web",
      { description: "taken over too" },
      { annotations: { [Annotation.href]: href }, finalizers: [FINALIZER] },
    );
    // teamd/web stays to the end: it adopts the object once demo/web lets it go.
    await createCr(
      stack,
      teamd,
      "Deployment",
      "web",
      { description: "team d" },
      { annotations: { [Annotation.href]: href } },
    );
    // Any number of ObserveOnly resources may observe it.
    await createCr(
      stack,
      teamb,
      "Deployment",
      "web-watch",
      { managementPolicy: "ObserveOnly" },
      { annotations: { [Annotation.href]: href } },
    );
    for (const ns of [teamb, teamc, teamd]) {
      const claimant = await waitForConditionWith(stack, ns, "Deployment", "web", "Stalled", "True", {
        reason: "AlreadyManaged",
        // Another namespace's owner is never named to the claimant (the log names it).
        message: new RegExp(`^${href} is already managed by a resource in another namespace;`),
      });
      expect(claimant.status?.href).toBeUndefined();
    }
    for (const ns of [teamb, teamd])
      expect((await getCr(stack, ns, "Deployment", "web"))?.metadata.finalizers).toBeUndefined();
    const watch = await waitForCondition(stack, teamb, "Deployment", "web-watch", "Ready", "True");
    expect(watch.status?.atProvider).toMatchObject({ description: "Web tier" });
    expect(deployment(href)?.description).toBe("Web tier");
    expect(await serviceWrites()).toBe(writes);

    // Deleting them deletes nothing in the service.
    await deleteAndWaitGone(stack, teamb, "Deployment", "web");
    await deleteAndWaitGone(stack, teamc, "Deployment", "web");
    await waitForEventReason(stack, teamc, "web", "Orphaned");
    expect(await serviceWrites()).toBe(writes);
    expect(deployment(href)?.description).toBe("Web tier");
    expect(simDeployments(stack)).toHaveLength(deployments);

    // demo/web still owns the same object (nothing re-created), and the Network points at it.
    await patchCr(stack, demo, "Deployment", "web", {
      metadata: { annotations: { [Annotation.reconcileRequestedAt]: "after-claims" } },
    });
    const after = await waitFor("demo/web to handle the requested reconcile", async () => {
      const o = await getCr(stack, demo, "Deployment", "web");
      return o?.status?.lastHandledReconcileAt === "after-claims" ? o : undefined;
    });
    expect(after.status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
    expect(after.status?.href).toBe(href);
    expect(simDeployments(stack)).toHaveLength(deployments);
    const networks = simRecords<{ name: string; deployment_href: string | null }>(stack, "networks");
    expect(networks.find((n) => n.name === "main")?.deployment_href).toBe(href);
    expect((await getCr(stack, demo, "Network", "main"))?.status?.atProvider?.deploymentHref).toBe(href);

    // demo/web lets go (deleted with deletionPolicy Orphan, after the Network that references
    // it): teamd/web is woken and adopts the object. Without the wake a Stalled resource waits
    // for its next change or the resync (10 minutes here).
    await deleteAndWaitGone(stack, demo, "Network", "main");
    await patchCr(stack, demo, "Deployment", "web", { spec: { deletionPolicy: "Orphan" } });
    await waitForCondition(stack, demo, "Deployment", "web", "Ready", "True");
    const deletes = await simCount(stack, "DELETE", /^\/api\/deployments/);
    await deleteAndWaitGone(stack, demo, "Deployment", "web");
    const adopted = await waitForCondition(stack, teamd, "Deployment", "web", "Ready", "True");
    expect(adopted.status?.href).toBe(href);
    expect(adopted.metadata.finalizers).toContain(FINALIZER);
    expect(deployment(href)?.description).toBe("team d");
    expect(simDeployments(stack)).toHaveLength(deployments);
    expect(await simCount(stack, "DELETE", /^\/api\/deployments/)).toBe(deletes);
  });

  it("when the owner's href changes, the claimant of the old one adopts it", async () => {
    const ownerNs = await readyNamespace();
    const claimNs = await readyNamespace();
    await createCr(stack, ownerNs, "Deployment", "svc", { description: "owner's" });
    const href = (await waitForCondition(stack, ownerNs, "Deployment", "svc", "Ready", "True")).status!.href!;
    await createCr(
      stack,
      claimNs,
      "Deployment",
      "svc",
      { description: "claimant's" },
      { annotations: { [Annotation.href]: href } },
    );
    await waitForCondition(stack, claimNs, "Deployment", "svc", "Stalled", "True", "AlreadyManaged");
    const api = serviceApi(stack);
    const other = await api.deployments.create({ name: "svc-elsewhere" });
    await api.close();

    await patchCr(stack, ownerNs, "Deployment", "svc", {
      metadata: { annotations: { [Annotation.href]: other } },
    });
    await waitFor("the owner on its new href", async () => {
      const o = await getCr(stack, ownerNs, "Deployment", "svc");
      return o?.status?.href === other;
    });
    const adopted = await waitForCondition(stack, claimNs, "Deployment", "svc", "Ready", "True");
    expect(adopted.status?.href).toBe(href);
    expect(deployment(href)?.description).toBe("claimant's");
  });
});
