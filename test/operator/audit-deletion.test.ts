import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawKube } from "../../src/runtime/client/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  createCr,
  deleteCr,
  namespaceWithAccount,
  type Stack,
  setFaults,
  simRecords,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitGone,
} from "./harness.ts";

/**
 * The audit trail records every delete, end to end: a deletion is done once its line is written
 * in the service, and an Account deleted with its resources (a namespace deletion) keeps its
 * client until their lines are. A network's default route table, which the service deletes with
 * the network, gets its line too.
 */

let stack: Stack;
let operator: Operator;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

/** Each audit entry of the namespace's resources: its auditee and the verbs of its lines, in order. */
function trailOf(ns: string): { auditee: string; resource: string; verbs: string[] }[] {
  const line = new RegExp(` (created|updated|corrected drift of|replaced|deleted) (\\w+ ${ns}/[\\w-]+)[ ;]`);
  const entries = simRecords<{ auditee_href: string; chunks: { text: string }[] }>(stack, "audit_entries");
  return entries.flatMap((entry) => {
    const lines = entry.chunks
      .flatMap((c) => c.text.split("\n"))
      .map((l) => line.exec(l))
      .filter((m) => m !== null);
    if (lines.length === 0) return [];
    return [{ auditee: entry.auditee_href, resource: lines[0]![2]!, verbs: lines.map((m) => m[1]!) }];
  });
}

/** What the operator logged of audit calls that failed or were cut off. */
const auditFailures = () =>
  stack.logs.filter(
    (l) => l.includes("could not write the audit trail") || /client is (destroyed|closed)/.test(l),
  );

async function auditErrors(): Promise<number> {
  const metric = await operator.metrics.auditErrors.get();
  return metric.values.reduce((n, v) => n + v.value, 0);
}

/** A Network whose default route table is a RouteTable of it. */
async function networkWithDefaultTable(ns: string): Promise<void> {
  await createCr(stack, ns, "Network", "main", {
    cloudHref: "/api/clouds/1",
    cidrBlock: "10.50.0.0/16",
    defaultRouteTableRef: { name: "main-private" },
  });
  await createCr(stack, ns, "RouteTable", "main-private", { networkRef: { name: "main" } });
}

describe("the audit trail records every delete", () => {
  it("a namespace deleted with its Account: every object created has its deleted line when the namespace is gone, no call cut off", async () => {
    const errorsBefore = await auditErrors();
    const ns = await namespaceWithAccount(stack);
    // Resources deleted together, the last ones with the Account: their audit calls queue behind
    // each other (a few per Account at once) while the Account goes.
    const resources = ["web", "api", "worker", "batch", "cache"].map((name) => ["Deployment", name]);
    for (const [, name] of resources) await createCr(stack, ns, "Deployment", name!, { description: name });
    await createCr(stack, ns, "Network", "edge", { cloudHref: "/api/clouds/1", cidrBlock: "10.51.0.0/16" });
    resources.push(["Network", "edge"]);
    for (const [kind, name] of resources) await waitForCondition(stack, ns, kind!, name!, "Ready", "True");
    await waitFor("every create in the audit trail", async () => trailOf(ns).length === resources.length);

    // A service slow to answer (every call 200 ms): the audit calls of the deletions are still
    // queued when the last resource goes, and the Account with it.
    await setFaults(stack, { latencyMs: 200 });
    try {
      await new RawKube(stack.kc).call("DELETE", `/api/v1/namespaces/${ns}`);
      await waitFor(
        `namespace ${ns} gone`,
        async () => (await stack.core.listNamespace()).items.every((n) => n.metadata?.name !== ns),
        60_000,
      );
    } finally {
      await setFaults(stack, {});
    }

    // Read at once: the deletions were done only once their lines were written.
    const trail = trailOf(ns);
    expect(trail.map((e) => e.resource).sort()).toEqual(resources.map(([k, n]) => `${k} ${ns}/${n}`).sort());
    const notDeleted = trail.filter((e) => e.verbs.at(-1) !== "deleted").map((e) => e.resource);
    expect({ notDeleted, failures: auditFailures() }).toEqual({ notDeleted: [], failures: [] });
    expect(await auditErrors()).toBe(errorsBefore);
  }, 90_000);

  it("a network's default route table, deleted by the service with the network, gets its deleted line", async () => {
    const ns = await namespaceWithAccount(stack);
    await networkWithDefaultTable(ns);
    const table = await waitFor("the RouteTable the network's default, its entry recorded", async () => {
      const network = await waitForCondition(stack, ns, "Network", "main", "Ready", "True");
      const o = await waitForCondition(stack, ns, "RouteTable", "main-private", "Ready", "True");
      const isDefault = network.status?.atProvider?.defaultRouteTableHref === o.status?.href;
      return isDefault && o.status?.auditEntryHref ? o : undefined;
    });
    await deleteCr(stack, ns, "RouteTable", "main-private");
    await deleteCr(stack, ns, "Network", "main");
    await waitGone(stack, ns, "RouteTable", "main-private");

    const entry = trailOf(ns).find((e) => e.auditee === table.status?.href);
    expect(entry?.verbs).toEqual(["created", "deleted"]);
    const text = simRecords<{ id: string; chunks: { text: string }[] }>(stack, "audit_entries")
      .find((e) => `/api/audit_entries/${e.id}` === table.status?.auditEntryHref)
      ?.chunks.map((c) => c.text)
      .join("");
    expect(text).toMatch(
      new RegExp(
        `deleted RouteTable ${ns}/main-private \\(found already gone from the service\\); reconcile`,
      ),
    );
  });
});
