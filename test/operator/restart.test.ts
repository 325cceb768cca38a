// An operator restart must not flip Ready resources to False while the new process checks the
// Account's credentials again: people alert on Ready=False, and a rollout of the operator is not
// an incident. The new process parks its resources until the Account is checked, without reconciling them,
// and records no Event: it has nothing new to tell.
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import {
  condition,
  createCr,
  eventReasons,
  namespaceWithAccount,
  type Stack,
  serviceApi,
  setFaults,
  simCount,
  simDeployments,
  startOperator,
  startStack,
  stopOperator,
  waitFor,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await setFaults(stack, {}).catch(() => {});
  await stack?.close();
});

async function reconciles(op: Operator, kind: string, result: string): Promise<number> {
  const metric = await op.metrics.reconcileTotal.get();
  return metric.values
    .filter((v) => v.labels.kind === kind && v.labels.result === result)
    .reduce((n, v) => n + v.value, 0);
}

/** Each Event of the namespace: its reason, object and count. */
async function eventCounts(ns: string): Promise<string[]> {
  const list = await stack.core.listNamespacedEvent({ namespace: ns });
  return list.items
    .map((e) => `${e.reason} ${e.involvedObject.kind}/${e.involvedObject.name} x${e.count ?? 1}`)
    .sort();
}

describe("operator restart", () => {
  it("Ready resources stay Ready while the new process checks the Account again", async () => {
    const first = await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    const names = ["a", "b", "c", "d", "e"];
    for (const name of names) await createCr(stack, ns, "Deployment", name, {});
    for (const name of names) await waitForCondition(stack, ns, "Deployment", name, "Ready", "True");
    await stopOperator(stack, first);
    const eventsBefore = await eventCounts(ns);

    const seen: { name: string; ready: string | undefined; reason: string | undefined }[] = [];
    const watch = await new k8s.Watch(stack.kc).watch(
      `/apis/${GROUP}/${VERSION}/namespaces/${ns}/deployments`,
      {},
      (_phase, obj: ManagedObject) => {
        const ready = condition(obj, "Ready");
        seen.push({ name: obj.metadata.name, ready: ready?.status, reason: ready?.reason });
      },
      () => {},
    );
    try {
      // A slow service: the Account's check (a token call) takes long enough for the
      // Deployments' informer to deliver them all before it finishes.
      await setFaults(stack, { latencyMs: 300 });
      const second = await startOperator(stack);
      await waitFor(
        "every Deployment reconciled by the new process",
        async () => (await reconciles(second, "Deployment", "ready")) >= names.length,
        20_000,
      );
      // Parked before any reconcile ran (not run only to learn that the Account is not checked yet).
      expect(await reconciles(second, "Deployment", "waiting")).toBe(0);
      expect(seen.length).toBeGreaterThanOrEqual(names.length); // the initial ADDED events at least
      expect(seen.filter((s) => s.ready !== "True")).toEqual([]);
      // Nothing new to tell: no Event, not even the Account's CredentialsValid (its Ready says so).
      await stopOperator(stack, second);
      expect(await eventCounts(ns)).toEqual(eventsBefore);
    } finally {
      watch.abort();
      await setFaults(stack, {});
    }
  });

  it("reads each kind's index once per scope for the settled resources it confirms, and no object on its own", async () => {
    const first = await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    const names = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const spec = (i: number) => ({ cloudHref: "/api/clouds/1", cidrBlock: `10.${i}.0.0/16` });
    await Promise.all(names.map((name, i) => createCr(stack, ns, "Network", name, spec(i))));
    await Promise.all(names.map((name) => waitForCondition(stack, ns, "Network", name, "Ready", "True")));
    await stopOperator(stack, first);
    // A slow service: without the confirmation, reconciles that start while an index call is in
    // flight meet in a later batch and read the index again.
    await setFaults(stack, { latencyMs: 200 });
    const indexReads = () => simCount(stack, "GET", "/api/networks");
    const shows = () => simCount(stack, "GET", "/api/networks/:id");
    const before = { index: await indexReads(), shows: await shows() };
    try {
      const second = await startOperator(stack, { concurrency: "2" });
      await waitFor(
        "every Network reconciled by the new process",
        async () => (await reconciles(second, "Network", "ready")) >= names.length,
        30_000,
      );
      // The one index read is the confirmation's (counted with the resync's), not a batch's.
      const confirmations = (await second.metrics.resyncCalls.get()).values.find(
        (v) => v.labels.kind === "Network",
      )?.value;
      await stopOperator(stack, second);
      expect({ index: (await indexReads()) - before.index, shows: (await shows()) - before.shows }).toEqual({
        index: 1,
        shows: 0,
      });
      expect(confirmations).toBe(1);
    } finally {
      await setFaults(stack, {});
    }
  });

  it("puts back a change made in the service while it was down, from the confirmation's read", async () => {
    const first = await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    await createCr(stack, ns, "Deployment", "drifty", { description: "desired" });
    await createCr(stack, ns, "Deployment", "steady", { description: "desired" });
    const o = await waitForCondition(stack, ns, "Deployment", "drifty", "Ready", "True");
    await waitForCondition(stack, ns, "Deployment", "steady", "Ready", "True");
    await stopOperator(stack, first);
    const api = serviceApi(stack);
    await api.deployments.update(o.status!.href!, { description: "changed by hand" });
    await api.close();
    const second = await startOperator(stack);
    try {
      const description = (name: string) => simDeployments(stack).find((d) => d.name === name)?.description;
      await waitFor("drift put back", async () => description("drifty") === "desired", 20_000);
      await waitFor("DriftCorrected event", async () =>
        (await eventReasons(stack, ns, "drifty")).includes("DriftCorrected"),
      );
      expect(description("steady")).toBe("desired");
      expect(await eventReasons(stack, ns, "steady")).not.toContain("DriftCorrected");
    } finally {
      await stopOperator(stack, second);
    }
  });
});
