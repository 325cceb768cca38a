import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoordinationV1Api, KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { managedKinds } from "../../src/kinds/index.ts";
import { createVolumeKind } from "../../src/kinds/volume/kind.ts";
import { createOperator } from "../../src/run/index.ts";
import { loadConfig } from "../../src/runtime/config/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import type { AnyManagedKind } from "../../src/runtime/sdk/index.ts";
import {
  createCr,
  deleteCr,
  namespaceWithAccount,
  type Stack,
  startStack,
  waitForCondition,
  waitGone,
} from "../operator/harness.ts";
import { controlPlane } from "../support/control-plane.testing.ts";

/**
 * The operator under the shipped deploy/operator/rbac.yaml on a real kube-apiserver (RBAC on),
 * authenticated as its ServiceAccount with a token the apiserver minted, not as admin: a full
 * lifecycle (an Account, a Deployment, a Volume, attachments reading a ConfigMap and a Secret,
 * leader election in its own namespace, Events) must meet no refusal. The devcluster has no
 * authoriser; test/deploy/rbac-usage.test.ts checks the same rules against its recorded calls.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const OPERATOR_NS = "svc-operator-system";
const plane = controlPlane();

let stack: Stack;
let dir: string;
let operator: Operator | undefined;
const logs: string[] = [];

function kubectl(kubeconfig: string, ...args: string[]): string {
  const run = spawnSync("kubectl", ["--kubeconfig", kubeconfig, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`kubectl ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** A kubeconfig of the operator's ServiceAccount, with a token minted by the TokenRequest API. */
async function serviceAccountKubeconfig(admin: string): Promise<KubeConfig> {
  kubectl(
    admin,
    "apply",
    "-f",
    join(ROOT, "deploy/operator/namespace.yaml"),
    "-f",
    join(ROOT, "deploy/operator/rbac.yaml"),
  );
  const token = kubectl(
    admin,
    "create",
    "token",
    "svc-operator",
    "-n",
    OPERATOR_NS,
    "--duration",
    "1h",
  ).trim();
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: plane!.url, caData: Buffer.from(plane!.ca).toString("base64") }],
    users: [{ name: "svc-operator", token }],
    contexts: [{ name: "x", cluster: "c", user: "svc-operator" }],
    currentContext: "x",
  });
  return kc;
}

beforeAll(async () => {
  if (!plane) return;
  stack = await startStack({ server: "kube-apiserver" });
  dir = await mkdtemp(join(tmpdir(), "rbac-real-"));
  const admin = join(dir, "admin.kubeconfig");
  await writeFile(admin, plane.kubeconfig, { mode: 0o600 });
  const kubeConfig = await serviceAccountKubeconfig(admin);
  operator = createOperator({
    config: loadConfig(
      {
        "metrics-address": "127.0.0.1:0",
        "leader-elect": true,
        "lease-namespace": OPERATOR_NS,
        "lease-duration": "2s",
        resync: "2s",
      },
      {},
    ),
    kubeConfig,
    // A volume's deletion is re-checked every 10 s by default; 300 ms keeps the test short.
    kinds: managedKinds.map((k) =>
      k.kind === "Volume" ? (createVolumeKind({ deletionRetryMs: 300 }) as unknown as AnyManagedKind) : k,
    ),
    log: pino({ level: "info" }, { write: (line: string) => void logs.push(line) }),
    api: { retry: { baseDelayMs: 20, maxDelayMs: 200 } },
  });
  await operator.start();
}, 90_000);

afterAll(async () => {
  await operator?.stop(5_000);
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.runIf(plane !== null)("the shipped RBAC on a real kube-apiserver", () => {
  it("lets the operator, as its ServiceAccount, take every kind of call through a lifecycle", {
    timeout: 120_000,
  }, async () => {
    const ns = await namespaceWithAccount(stack);
    await stack.core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: "scripts" }, data: { "run.sh": "echo rbac\n" } },
    });
    await stack.core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: "script-keys" }, stringData: { id: "rbac-key" } },
    });
    await createCr(stack, ns, "Deployment", "web", { name: `${ns}-web`, description: "rbac" });
    await createCr(stack, ns, "Volume", "data", {
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      size: 10,
      deploymentRef: { name: "web" },
    });
    await createCr(stack, ns, "StoredScriptAttachment", "from-map", {
      storedScriptHref: "/api/stored_scripts/1",
      contentFrom: { configMapKeyRef: { name: "scripts", key: "run.sh" } },
    });
    await createCr(stack, ns, "StoredScriptAttachment", "from-secret", {
      storedScriptHref: "/api/stored_scripts/1",
      contentFrom: { secretKeyRef: { name: "script-keys", key: "id" } },
    });
    const all = [
      ["Account", "default"],
      ["Deployment", "web"],
      ["Volume", "data"],
      ["StoredScriptAttachment", "from-map"],
      ["StoredScriptAttachment", "from-secret"],
    ] as const;
    for (const [kind, name] of all)
      await waitForCondition(stack, ns, kind, name, "Ready", "True", undefined, 60_000);
    // The Lease, in the operator's own namespace.
    const lease = await stack.kc
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ name: "svc-operator-leader", namespace: OPERATOR_NS });
    expect(lease.spec?.holderIdentity).toBeTruthy();
    await new Promise((r) => setTimeout(r, 2_500)); // one resync pass

    for (const [kind, name] of all.slice(1).reverse()) await deleteCr(stack, ns, kind, name);
    for (const [kind, name] of all.slice(1)) await waitGone(stack, ns, kind, name, 60_000);
    await deleteCr(stack, ns, "Account", "default");
    await waitGone(stack, ns, "Account", "default", 60_000);

    // Events were written (the recorder's create and patch) by the ServiceAccount.
    const events = await stack.core.listNamespacedEvent({ namespace: ns });
    expect(events.items.length).toBeGreaterThan(0);
    const refused = logs.filter((l) => /forbidden|\b403\b/i.test(l));
    expect(refused, refused.join("\n")).toEqual([]);
  });
});
