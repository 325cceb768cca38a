import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterError, ClusterReader } from "../../src/inventory/index.ts";
import { kubeconfigFile } from "../export/rig.ts";
import { createCr, type Stack, startStack } from "../operator/harness.ts";

describe("ClusterReader: one kind across every namespace", () => {
  let stack: Stack;
  let reader: ClusterReader;

  beforeAll(async () => {
    stack = await startStack();
    for (const namespace of ["team-a", "team-b", "team-c"]) {
      await stack.core.createNamespace({ body: { metadata: { name: namespace } } });
      for (const name of ["web", "batch"]) await createCr(stack, namespace, "Deployment", name, { name });
    }
    reader = new ClusterReader(await kubeconfigFile(stack));
  });

  afterAll(async () => {
    await reader?.close();
    await stack?.close();
  });

  it("reads every page: each answer holds at most a page, the list holds them all", async () => {
    const all = await reader.listEverywhere("deployments", 4);
    expect(all.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      "team-a/batch",
      "team-a/web",
      "team-b/batch",
      "team-b/web",
      "team-c/batch",
      "team-c/web",
    ]);
  });

  it("a refusal is a ClusterError that says it is one, with the apiserver's words", async () => {
    stack.cluster.deny({
      rules: [{ verb: "list", resource: "deployments", scope: "cluster" }],
      user: "ci-reader",
    });
    try {
      const error = await reader.listEverywhere("deployments").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClusterError);
      expect(error).toMatchObject({
        forbidden: true,
        reason:
          'deployments.cloud.svc.io is forbidden: User "ci-reader" cannot list resource "deployments" in API group "cloud.svc.io" at the cluster scope',
      });
      // Within a namespace the same reader may list them.
      expect(await reader.list("deployments", "team-b")).toHaveLength(2);
    } finally {
      stack.cluster.deny({ rules: [] });
    }
  });
});
