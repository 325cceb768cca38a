import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import { accountNamespace, applyDirectory, cli, exportedStack } from "../export/rig.ts";
import {
  createCr,
  type Stack,
  startOperator,
  stopOperator,
  waitForConditionWith,
} from "../operator/harness.ts";

const NS = "team-a";
const READER = "ci-reader";

/** The href the exported manifest of `file` names (its `cloud.svc.io/href` annotation). */
async function exportedHref(dir: string, file: string): Promise<string> {
  const doc = parse(await readFile(join(dir, file), "utf8")) as {
    metadata: { annotations: Record<string, string> };
  };
  return doc.metadata.annotations[Annotation.href]!;
}

/**
 * An exported account planned while another namespace already manages one of its objects: plan
 * sees it through one list per kind across namespaces, as the operator's index does, and says
 * `blocked` where the operator would stall `AlreadyManaged`.
 */
describe("plan sees the owners of hrefs in every namespace", () => {
  let stack: Stack;
  let dir: string;
  let kubeconfig: string;
  let web: string;

  beforeAll(async () => {
    ({ stack, dir, kubeconfig } = await exportedStack(NS, ["--layout", "object"]));
    web = await exportedHref(dir, "deployments/web.yaml");
    // demo/web manages the web deployment already (the operator recorded it: Ready).
    await accountNamespace(stack, "demo");
    await createCr(
      stack,
      "demo",
      "Deployment",
      "web",
      { name: "web" },
      { annotations: { [Annotation.href]: web } },
    );
    // Another service account's resource names the batch deployment's href: a different object.
    await stack.core.createNamespace({ body: { metadata: { name: "elsewhere" } } });
    await createCr(stack, "elsewhere", "Account", "default", {
      endpoint: stack.sim.url,
      accountId: 2,
      oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
    });
    const batch = await exportedHref(dir, "deployments/batch-jobs.yaml");
    await createCr(
      stack,
      "elsewhere",
      "Deployment",
      "batch",
      { name: "Batch Jobs" },
      { annotations: { [Annotation.href]: batch } },
    );
    await startOperator(stack);
    await waitForConditionWith(stack, "demo", "Deployment", "web", "Ready", "True", { timeoutMs: 30_000 });
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("says blocked (exit 1), naming the owner in another namespace, where the operator stalls AlreadyManaged", async () => {
    const r = await cli(["plan", "-f", dir, "--kubeconfig", kubeconfig]);
    expect(r.out).toMatch(
      new RegExp(`^blocked +Deployment team-a/web +${web} is already managed by demo/web; `, "m"),
    );
    // A resource of another service account names the same href: not an owner of this one.
    expect(r.out).toMatch(/^no change +Deployment team-a\/batch-jobs$/m);
    expect(r.err).toBe("");
    expect(r.code).toBe(1);

    // Applied, the operator agrees, and its status names no other namespace's resource (#30).
    await applyDirectory(stack, dir);
    const stalled = await waitForConditionWith(stack, NS, "Deployment", "web", "Stalled", "True", {
      reason: "AlreadyManaged",
      timeoutMs: 30_000,
    });
    const message = stalled.status?.conditions?.find((c) => c.type === "Stalled")?.message ?? "";
    expect(message).toContain(`${web} is already managed by a resource in another namespace`);
    expect(message).not.toMatch(/demo/);
    await waitForConditionWith(stack, NS, "Deployment", "batch-jobs", "Ready", "True", { timeoutMs: 30_000 });
  }, 90_000);

  it("says it could not check other namespaces, and why, when its reader may not list across them; and goes on", async () => {
    for (const operator of [...stack.operators]) await stopOperator(stack, operator);
    // A reader with a Role in team-a only: lists in its namespace pass, lists across namespaces are refused.
    stack.cluster.deny({
      rules: [{ verb: "list", resource: "*", group: "cloud.svc.io", scope: "cluster" }],
      user: READER,
    });
    try {
      const r = await cli(["plan", "-f", dir, "--kubeconfig", kubeconfig, "-o", "json"]);
      expect(r.err).toBe(
        "svc-operator plan: other namespaces not checked for owners of these hrefs: the cluster refused to " +
          "list the custom resources of cloud.svc.io across namespaces (403: deployments.cloud.svc.io is " +
          `forbidden: User "${READER}" cannot list resource "deployments" in API group "cloud.svc.io" at the ` +
          "cluster scope); a resource there that manages one is not seen, so plan cannot say blocked for it " +
          "(plan needs list at the cluster scope: see docs/plan-in-ci.md)",
      );
      const resources = (JSON.parse(r.out) as { resources: { name: string; action: string }[] }).resources;
      expect(resources.find((x) => x.name === "web")?.action).toBe("no change");
      expect(resources.filter((x) => x.action !== "no change")).toEqual([]);
      expect(r.code).toBe(0);
    } finally {
      stack.cluster.deny({ rules: [] });
    }
  }, 60_000);
});
