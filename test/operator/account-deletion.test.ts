import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_DELETING } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  deleteCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  simDeployments,
  startOperator,
  startStack,
  stopOperator,
  waitForCondition,
  waitForConditionWith,
  waitGone,
} from "./harness.ts";

/** An Account being deleted while resources use it: what it and they say, and how they are released. */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("an Account being deleted", () => {
  it("serves only deletes: a resource not being deleted waits, named in the Account's status", async () => {
    await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    await createCr(stack, ns, "Deployment", "api", {});
    await waitForCondition(stack, ns, "Deployment", "api", "Ready", "True");
    await deleteCr(stack, ns, "Account", "default");
    await waitForConditionWith(stack, ns, "Account", "default", "Ready", "False", {
      reason: "DeletionBlocked",
      message:
        /^still used by 1 resource not being deleted: Deployment api; delete it or change its spec\.accountRef$/,
    });
    // A new generation makes it reconcile now (not at the next resync): it can no longer write.
    await patchCr(stack, ns, "Deployment", "api", { spec: { description: "changed" } });
    const api = await waitForConditionWith(stack, ns, "Deployment", "api", "Ready", "False", {
      reason: "DependencyNotReady",
    });
    expect(api.status?.conditions?.find((c) => c.type === "Ready")?.message).toBe(
      `spec.accountRef: Account default is not ready: ${ACCOUNT_DELETING}`,
    );
    await deleteCr(stack, ns, "Deployment", "api");
    await waitGone(stack, ns, "Deployment", "api");
    await waitGone(stack, ns, "Account", "default");
    expect(simDeployments(stack).map((d) => d.name)).not.toContain("api");
    for (const op of [...stack.operators]) await stopOperator(stack, op);
  });

  it("with no credentials left anywhere (restarted after the Secret went), resources say so and Orphan releases them", async () => {
    const first = await startOperator(stack);
    const ns = await namespaceWithAccount(stack);
    await createCr(stack, ns, "Deployment", "web", {});
    await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    await stopOperator(stack, first);
    await stack.core.deleteNamespacedSecret({ namespace: ns, name: "svc-credentials" });
    await deleteCr(stack, ns, "Deployment", "web");
    await deleteCr(stack, ns, "Account", "default");

    await startOperator(stack);
    const web = await waitForConditionWith(stack, ns, "Deployment", "web", "Ready", "False", {
      reason: "SecretNotFound",
    });
    const href = web.status?.href;
    expect(web.status?.conditions?.find((c) => c.type === "Ready")?.message).toBe(
      `cannot delete ${href}: Account default has no working credentials: Secret svc-credentials ` +
        "(spec.oauth.refreshTokenSecretRef) not found, and this operator process kept none from before; " +
        "restore the Account's credentials, or set spec.deletionPolicy: Orphan to release this resource " +
        `and leave ${href} in the service`,
    );
    await waitForConditionWith(stack, ns, "Account", "default", "Ready", "False", {
      reason: "DeletionBlocked",
      message:
        /^waiting for 1 dependent being deleted: Deployment web \(deleting[^)]*\); they cannot delete their service objects: Secret svc-credentials \(spec\.oauth\.refreshTokenSecretRef\) not found, .*set spec\.deletionPolicy: Orphan on those resources/,
    });

    // The CRD lets the policy change on an object being deleted; the resource then goes, its object stays.
    await patchCr(stack, ns, "Deployment", "web", { spec: { deletionPolicy: "Orphan" } });
    await waitGone(stack, ns, "Deployment", "web");
    await waitGone(stack, ns, "Account", "default");
    expect(simDeployments(stack).map((d) => d.name)).toContain("web");
  });
});
