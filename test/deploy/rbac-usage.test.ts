import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { crdSources, managedKinds } from "../../src/kinds/index.ts";
import { createVolumeKind } from "../../src/kinds/volume/kind.ts";
import { createOperator } from "../../src/run/index.ts";
import { loadConfig } from "../../src/runtime/config/index.ts";
import { buildCrd } from "../../src/runtime/crd/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import type { AnyManagedKind } from "../../src/runtime/sdk/index.ts";
import { isTrue } from "../../src/runtime/sdk/index.ts";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";
import { type Attributes, allows, type Rule, recordingProxy } from "./rbac.ts";
import { type Manifest, render } from "./render.ts";

/**
 * The RBAC of deploy/ against what the operator really calls: the operator runs with
 * leader election against a devcluster behind a recording proxy, takes an Account, a
 * Deployment and a Volume through create, drift-free reconcile and deletion, and every
 * request it made must be allowed by the rendered ClusterRole and Role (as the apiserver's
 * RBAC authorizer would decide it), in the operator's own namespace for the Lease. Two
 * StoredScriptAttachments read their content from a ConfigMap and a Secret: ConfigMaps are read,
 * listed and watched, Secrets only read.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const NS = "svc-operator-system";
const TEAM = "team-a";

let cluster: DevCluster;
let sim: Simulator;
let proxy: Server;
let operator: Operator | undefined;
const seen: Attributes[] = [];
const admin = async (method: string, path: string, body?: unknown, type = "application/json") => {
  const res = await fetch(`${cluster.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${cluster.token}`, "content-type": type },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{
    status?: { conditions?: never[]; observedGeneration?: number };
    metadata: { generation?: number };
  }>;
};
const cr = (plural: string, name = "") =>
  `/apis/cloud.svc.io/v1alpha1/namespaces/${TEAM}/${plural}${name ? `/${name}` : ""}`;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  cluster = await createDevCluster();
  sim = await createSimulator();
  proxy = await recordingProxy(cluster.url, seen);
  for (const source of crdSources())
    await admin("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", buildCrd(source));
  for (const ns of [NS, TEAM]) await admin("POST", "/api/v1/namespaces", { metadata: { name: ns } });
}, 60_000);

afterAll(async () => {
  await operator?.stop(5_000);
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await sim?.close();
  await cluster?.close();
});

describe("RBAC of deploy/ against the operator's real calls", () => {
  it("every request of a full lifecycle is allowed; the Lease only in the operator's namespace", {
    timeout: 90_000,
  }, async () => {
    const port = (proxy.address() as AddressInfo).port;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: "u", token: cluster.token }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    operator = createOperator({
      config: loadConfig(
        {
          "metrics-address": "127.0.0.1:0",
          "leader-elect": true,
          "lease-namespace": NS,
          "lease-duration": "2s",
          resync: "2s",
        },
        {},
      ),
      kubeConfig: kc,
      // A volume's deletion is re-checked every 10 s by default; 300 ms keeps the test short.
      kinds: managedKinds.map((k) =>
        k.kind === "Volume" ? (createVolumeKind({ deletionRetryMs: 300 }) as unknown as AnyManagedKind) : k,
      ),
      log: pino({ level: process.env.RBAC_TEST_LOG ?? "silent" }),
      api: { retry: { baseDelayMs: 20, maxDelayMs: 200 } },
    });
    await operator.start();

    await admin("POST", `/api/v1/namespaces/${TEAM}/secrets`, {
      metadata: { name: "svc-credentials" },
      stringData: { refreshToken: "dev-refresh-token" },
    });
    await admin("POST", cr("accounts"), {
      apiVersion: "cloud.svc.io/v1alpha1",
      kind: "Account",
      metadata: { name: "default" },
      spec: {
        endpoint: sim.url,
        accountId: 1,
        oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
      },
    });
    await admin("POST", cr("deployments"), {
      apiVersion: "cloud.svc.io/v1alpha1",
      kind: "Deployment",
      metadata: { name: "web" },
      spec: { description: "rbac" },
    });
    await admin("POST", cr("volumes"), {
      apiVersion: "cloud.svc.io/v1alpha1",
      kind: "Volume",
      metadata: { name: "data" },
      spec: {
        cloudHref: "/api/clouds/1",
        datacenterHref: "/api/clouds/1/datacenters/1",
        size: 10,
        deploymentRef: { name: "web" },
      },
    });
    await admin("POST", `/api/v1/namespaces/${TEAM}/configmaps`, {
      metadata: { name: "scripts" },
      data: { "run.sh": "echo rbac\n" },
    });
    await admin("POST", `/api/v1/namespaces/${TEAM}/secrets`, {
      metadata: { name: "script-keys" },
      stringData: { id: "rbac-key" },
    });
    for (const [name, contentFrom] of [
      ["from-map", { configMapKeyRef: { name: "scripts", key: "run.sh" } }],
      ["from-secret", { secretKeyRef: { name: "script-keys", key: "id" } }],
    ] as const)
      await admin("POST", cr("storedscriptattachments"), {
        apiVersion: "cloud.svc.io/v1alpha1",
        kind: "StoredScriptAttachment",
        metadata: { name },
        spec: { storedScriptHref: "/api/stored_scripts/1", contentFrom },
      });
    const ready = async (plural: string, name: string) => {
      const o = await admin("GET", cr(plural, name));
      return isTrue(o.status?.conditions, "Ready") && o.status?.observedGeneration === o.metadata.generation;
    };
    await until(
      "Deployment, Volume and attachments Ready",
      async () =>
        (await ready("deployments", "web")) &&
        (await ready("volumes", "data")) &&
        (await ready("storedscriptattachments", "from-map")) &&
        (await ready("storedscriptattachments", "from-secret")),
    );
    await new Promise((r) => setTimeout(r, 2_500)); // one drift-detection pass
    await admin("DELETE", cr("volumes", "data"));
    await admin("DELETE", cr("deployments", "web"));
    await admin("DELETE", cr("storedscriptattachments", "from-map"));
    await admin("DELETE", cr("storedscriptattachments", "from-secret"));
    const gone = async (plural: string, name: string) =>
      (
        await fetch(`${cluster.url}${cr(plural, name)}`, {
          headers: { authorization: `Bearer ${cluster.token}` },
        })
      ).status === 404;
    await until(
      "all deleted",
      async () =>
        (await gone("volumes", "data")) &&
        (await gone("deployments", "web")) &&
        (await gone("storedscriptattachments", "from-map")) &&
        (await gone("storedscriptattachments", "from-secret")),
    );
    await operator.stop(5_000);
    operator = undefined;

    const manifests: Manifest[] = render(join(ROOT, "deploy"));
    const clusterRules = (
      manifests.find((m) => m.kind === "ClusterRole" && m.metadata.name === "svc-operator") as unknown as {
        rules: Rule[];
      }
    ).rules;
    const role = manifests.find((m) => m.kind === "Role") as unknown as {
      metadata: { namespace: string };
      rules: Rule[];
    };
    const denied = seen.filter(
      (a) => !allows(clusterRules, a) && !(a.namespace === role.metadata.namespace && allows(role.rules, a)),
    );
    expect(denied.map((a) => `${a.verb} ${a.group}/${a.resource} (${a.line})`)).toEqual([]);

    // What the lifecycle exercised (so the check above is not vacuous).
    const used = new Set(seen.map((a) => `${a.verb} ${a.group}/${a.resource}`));
    for (const expected of [
      "list cloud.svc.io/deployments",
      "watch cloud.svc.io/deployments",
      "patch cloud.svc.io/deployments",
      "patch cloud.svc.io/deployments/status",
      "patch cloud.svc.io/accounts/status",
      "get /secrets",
      "get /configmaps",
      "list /configmaps",
      "watch /configmaps",
      "create /events",
      "get coordination.k8s.io/leases",
      "create coordination.k8s.io/leases",
      "update coordination.k8s.io/leases",
    ])
      expect(used, expected).toContain(expected);
    expect([...used].filter((u) => u.includes("secrets"))).toEqual(["get /secrets"]);
    expect([...used].filter((u) => u.includes("configmaps")).sort()).toEqual([
      "get /configmaps",
      "list /configmaps",
      "watch /configmaps",
    ]);
  });
});
