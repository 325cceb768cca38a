import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "./harness.ts";

/**
 * `kubectl delete namespace`: the operator deletes what the namespace holds, and the Events it
 * records on the way are refused with a 403 the namespace's deletion causes (kube-apiserver's
 * NamespaceLifecycle admission, cause NamespaceTerminating). Its log must blame that, not RBAC.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("Events refused while the namespace is being deleted", () => {
  it("are logged once as the namespace being deleted, never as a ServiceAccount lacking create on events", async () => {
    const ns = await namespaceWithAccount(stack);
    await createCr(stack, ns, "Network", "main", { cloudHref: "/api/clouds/1", cidrBlock: "10.42.0.0/16" });
    await createCr(stack, ns, "Network", "edge", { cloudHref: "/api/clouds/1", cidrBlock: "10.43.0.0/16" });
    await waitForCondition(stack, ns, "Network", "main", "Ready", "True");
    await waitForCondition(stack, ns, "Network", "edge", "Ready", "True");

    await stack.core.deleteNamespace({ name: ns });
    await waitFor(
      `namespace ${ns} gone`,
      async () => !(await stack.core.listNamespace()).items.some((n) => n.metadata?.name === ns),
      60_000,
    );
    // The ProblemLog would report an RBAC cause after its gather delay (1 s): wait past it.
    await new Promise((r) => setTimeout(r, 1_500));

    const lines = stack.logs.map((l) => JSON.parse(l) as { level: number; msg: string; namespace?: string });
    const aboutEvents = lines.filter((l) => l.msg.startsWith(`cannot create events in namespace ${ns}`));
    expect(aboutEvents.map((l) => l.msg)).toEqual([
      expect.stringContaining(
        `because it is being terminated); namespace ${ns} is being deleted (kube-apiserver creates nothing new ` +
          "in a terminating namespace): nothing to fix; the Events of its objects are dropped until it is gone",
      ),
    ]);
    expect(aboutEvents[0]!.level).toBe(30);
    expect(lines.filter((l) => l.msg.includes("lacks `create` on events"))).toEqual([]);
    expect(lines.filter((l) => l.msg === "could not record event" && l.level >= 40)).toEqual([]);
  });
});
