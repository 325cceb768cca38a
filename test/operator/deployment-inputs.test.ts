import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  condition,
  createCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  simDeployments,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
  waitForConditionWith,
} from "./harness.ts";

/**
 * Inputs the deployment does not have: the service ignores them (spec 4.13), so the operator says
 * so, by name, on the Ready condition and in a Warning event, and stays Ready (a `kubectl wait`
 * on the resource ends; nothing a retry could change).
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

/** The Warning events of one object, as `reason: message`. */
async function warnings(ns: string, name: string): Promise<string[]> {
  const list = await stack.core.listNamespacedEvent({ namespace: ns });
  return list.items
    .filter((e) => e.involvedObject.name === name && e.type === "Warning")
    .map((e) => `${e.reason}: ${e.message}`);
}

describe("Deployment inputs the service ignores", () => {
  it("a new deployment has no inputs: Ready, reason FieldsIgnored naming them, one Warning event", async () => {
    const ns = await readyNamespace();
    await createCr(stack, ns, "Deployment", "web", {
      description: "Web tier",
      inputs: { APP_ENV: "text:production", DB_PASSWORD: "cred:DB_PASSWORD" },
    });
    const web = await waitForConditionWith(stack, ns, "Deployment", "web", "Ready", "True", {
      reason: "FieldsIgnored",
    });
    expect(condition(web, "Ready")?.message).toBe(
      "spec.inputs: the deployment has no input named APP_ENV, DB_PASSWORD, and the service ignores " +
        "inputs a deployment does not have; check the names, or remove them from spec.inputs",
    );
    expect(condition(web, "Synced")?.status).toBe("True");
    expect(condition(web, "Reconciling")?.status).toBe("False");
    expect(web.status?.atProvider?.inputs).toEqual({});
    const said = await waitFor("the Warning event", async () => {
      const w = await warnings(ns, "web");
      return w.length > 0 ? w : undefined;
    });
    expect(said).toEqual([`FieldsIgnored: ${condition(web, "Ready")?.message}`]);

    // Removed from the spec: Available, and no further warning.
    await patchCr(stack, ns, "Deployment", "web", { spec: { inputs: null } });
    await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True", "Available");
    expect(await warnings(ns, "web")).toEqual(said);
  });

  it("an adopted deployment: its own inputs are applied, only the unknown name is reported", async () => {
    const ns = await readyNamespace();
    await createCr(
      stack,
      ns,
      "Deployment",
      "prod",
      {
        name: "Production",
        inputs: { APP_ENV: "text:staging", APP_ENVV: "text:typo" },
        deletionPolicy: "Orphan",
      },
      { annotations: { [Annotation.href]: "/api/deployments/1" } },
    );
    const prod = await waitForConditionWith(stack, ns, "Deployment", "prod", "Ready", "True", {
      reason: "FieldsIgnored",
      message: /no input named APP_ENVV, and the service ignores/,
    });
    expect(
      simDeployments(stack)
        .find((d) => d.id === "1")
        ?.inputs.find((i) => i.name === "APP_ENV")?.value,
    ).toBe("text:staging");
    expect(prod.status?.atProvider?.inputs).not.toHaveProperty("APP_ENVV");
  });

  // On the playground its inputs are the deployment's own (test/dev/past-the-walkthrough.test.ts).
  it("the sample Deployment is Ready; where a new deployment lacks its inputs (this seed, a real account) they are named", async () => {
    const ns = await readyNamespace();
    const file = join(import.meta.dirname, "..", "..", "deploy", "samples", "00-deployment.yaml");
    const [doc] = parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS()) as {
      metadata: { name: string };
      spec: Record<string, unknown>;
    }[];
    // Deployment names are unique per service account: this file's first test holds "web".
    await createCr(stack, ns, "Deployment", doc!.metadata.name, { ...doc!.spec, name: `sample-${ns}` });
    const web = await waitForConditionWith(stack, ns, "Deployment", doc!.metadata.name, "Ready", "True", {
      reason: "FieldsIgnored",
    });
    expect(condition(web, "Ready")?.message).toContain(
      "the deployment has no input named APP_ENV, SYSLOG_HOST,",
    );
  });
});
