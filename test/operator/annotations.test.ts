import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  eventReasons,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  serviceApi,
  simCount,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitForConditionWith,
} from "./harness.ts";

/**
 * The annotations a user sets act on an existing, Ready object at once, as on a new one: not at
 * its next reconcile for some other reason, up to the operator's `--resync` (10 minutes here, the
 * default) later. (`paused` and `reconcile-requested-at`: deployment.test.ts.)
 */

let stack: Stack;
let api: ServiceApi;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

const annotate = (ns: string, kind: string, name: string, annotations: Record<string, string | null>) =>
  patchCr(stack, ns, kind, name, { metadata: { annotations } });

/** Reads of networks the simulator answered (a reconcile of a Network observes it with one). */
const networkReads = () => simCount(stack, "GET", /^\/api\/networks/);

describe("annotations on an existing object", () => {
  it("resync-interval on a Ready Network: it is reconciled at once, and drift is put back within the new period", async () => {
    const ns = await readyNamespace();
    await createCr(stack, ns, "Network", "main", {
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.30.0.0/16",
      description: "as declared",
    });
    const ready = await waitForCondition(stack, ns, "Network", "main", "Ready", "True");
    const href = ready.status!.href!;

    const before = await networkReads();
    await annotate(ns, "Network", "main", { [Annotation.resyncInterval]: "30s" });
    // The annotation's own reconcile observes the network: the new period starts from it.
    await waitFor("the annotation's reconcile", async () => (await networkReads()) > before);

    await api.networks.update(href, { description: "changed in the service" });
    // 30 s from that reconcile, and some room: the operator-wide resync is 10 minutes away.
    const fixed = await waitFor(
      "the drift put back",
      async () => {
        const o = await getCr(stack, ns, "Network", "main");
        return o?.status?.lastDrift ? o : undefined;
      },
      50_000,
    );
    expect(fixed.status?.lastDrift?.fields).toEqual([
      { field: "description", service: '"changed in the service"' },
    ]);
    expect((await api.networks.show(href)).description).toBe("as declared");
  }, 80_000);

  it("an invalid resync-interval on a Ready Subnet: the ResyncIntervalInvalid Warning at once", async () => {
    const ns = await readyNamespace();
    await createCr(stack, ns, "Network", "net", { cloudHref: "/api/clouds/1", cidrBlock: "10.31.0.0/16" });
    await createCr(stack, ns, "Subnet", "sub", {
      networkRef: { name: "net" },
      cidrBlock: "10.31.1.0/24",
      datacenterHref: "/api/clouds/1/datacenters/1",
    });
    await waitForCondition(stack, ns, "Subnet", "sub", "Ready", "True");
    expect(await eventReasons(stack, ns, "sub")).not.toContain("ResyncIntervalInvalid");

    await annotate(ns, "Subnet", "sub", { [Annotation.resyncInterval]: "5s" });
    await waitFor("the ResyncIntervalInvalid event", async () =>
      (await eventReasons(stack, ns, "sub")).includes("ResyncIntervalInvalid"),
    );
    const list = await stack.core.listNamespacedEvent({ namespace: ns });
    const warning = list.items.find((e) => e.reason === "ResyncIntervalInvalid");
    expect(warning?.type).toBe("Warning");
    expect(warning?.message).toContain('"5s" is shorter than the minimum of 30s');
  });

  it("an href annotation removed from a resource that refused it: the resource is created at once", async () => {
    const ns = await readyNamespace();
    // Not an href in the service's own form: refused, nothing read or written.
    await createCr(
      stack,
      ns,
      "Deployment",
      "web",
      {},
      { annotations: { [Annotation.href]: "/api/deployments/1?view=default" } },
    );
    await waitForConditionWith(stack, ns, "Deployment", "web", "Stalled", "True", { reason: "InvalidHref" });

    await annotate(ns, "Deployment", "web", { [Annotation.href]: null });
    const ready = await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    expect(ready.status?.href).toMatch(/^\/api\/deployments\/\d+$/);
    expect(ready.status?.href).not.toBe("/api/deployments/1");
  });
});
