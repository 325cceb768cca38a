import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Manifest } from "../../src/dev/apply.ts";
import { isSupport, loadSamples } from "../../src/dev/samples.ts";
import { API_VERSION, CATEGORY, GROUP } from "../../src/runtime/sdk/index.ts";
import {
  PLURALS,
  type Stack,
  simRecords,
  simStats,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "./harness.ts";

/**
 * Deleting a namespace's whole set at once — the Account, its Secret and every sample resource
 * — the three ways users do it, each over real HTTP against the devcluster, the simulator and
 * one operator. Each must finish (a 60 s wait, not a timing assertion), children first, with
 * nothing left in the service or the cluster. The Account's delete arrives first (category
 * order), in between (`-f` over HTTP), last (`-f` with kubectl) or with everything (namespace).
 */

const ROOT = join(import.meta.dirname, "..", "..");
const SAMPLES = join(ROOT, "deploy", "samples");
const FINISH_MS = 60_000;
/** The service collections the samples create objects in. */
const COLLECTIONS = [
  "deployments",
  "networks",
  "route_tables",
  "subnets",
  "network_gateways",
  "routes",
  "volumes",
  "recurring_volume_attachments",
  "stored_script_attachments",
  "permissions",
];

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}
const kubectlPath = onPath("kubectl");
if (!kubectlPath)
  console.warn("kubectl is not on PATH: skipping the kubectl variants of the delete-all tests");

let stack: Stack;
let dir: string;
let dispatcher: Agent;
/** Ids per service collection before any namespace was set up (the simulator's seed). */
let baseline: Record<string, string[]>;

beforeAll(async () => {
  stack = await startStack({ tls: true });
  dispatcher = new Agent({ connect: { ca: stack.cluster.caCert } });
  dir = await mkdtemp(join(tmpdir(), "delete-all-"));
  await writeFile(join(dir, "config"), stack.cluster.kubeconfig);
  baseline = serviceIds();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
  await dispatcher?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function serviceIds(): Record<string, string[]> {
  return Object.fromEntries(COLLECTIONS.map((c) => [c, simRecords(stack, c).map((r) => String(r.id))]));
}

/** One apiserver call as kubectl makes it (bearer token, the devcluster's CA). */
async function api(
  method: "GET" | "POST" | "DELETE",
  path: string,
  options: { body?: unknown; accept?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${stack.cluster.url}${path}`, {
    method,
    dispatcher,
    headers: {
      authorization: `Bearer ${stack.cluster.token}`,
      accept: options.accept ?? "application/json",
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : {} };
}

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      kubectlPath!,
      [`--kubeconfig=${join(dir, "config")}`, `--cache-dir=${join(dir, "cache")}`, ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** A Secret, a ConfigMap beside the samples (what an attachment uploads), or a custom resource. */
const CORE_PLURALS: Record<string, string> = { Secret: "secrets", ConfigMap: "configmaps" };
const pathOf = (m: Manifest, ns: string, name?: string) => {
  const base =
    m.apiVersion === "v1"
      ? `/api/v1/namespaces/${ns}/${CORE_PLURALS[m.kind]}`
      : `/apis/${API_VERSION}/namespaces/${ns}/${PLURALS[m.kind]}`;
  return name === undefined ? base : `${base}/${name}`;
};

/** The Secret and the Account of a namespace, as a user writes them beside the samples. */
function credentials(): Manifest[] {
  return [
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "svc-credentials" },
      stringData: { refreshToken: "dev-refresh-token" },
    },
    {
      apiVersion: API_VERSION,
      kind: "Account",
      metadata: { name: "default" },
      spec: {
        endpoint: stack.sim.url,
        accountId: 1,
        oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
      },
    },
  ];
}

let counter = 0;
/** A namespace holding the Secret, the Account and every sample, all Ready. */
async function fullNamespace(): Promise<{ ns: string; samples: Manifest[] }> {
  const ns = `all-${counter++}`;
  expect((await api("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  const samples = await loadSamples(SAMPLES, new Set(Object.keys(PLURALS)), GROUP);
  for (const m of [...credentials(), ...samples]) {
    const created = await api("POST", pathOf(m, ns), {
      body: { ...m, metadata: { ...m.metadata, namespace: ns } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  for (const m of [credentials()[1]!, ...samples.filter((x) => !isSupport(x))])
    await waitForCondition(stack, ns, m.kind, m.metadata.name, "Ready", "True", undefined, FINISH_MS);
  expect(Object.values(serviceIds()).flat().length).toBeGreaterThan(Object.values(baseline).flat().length);
  return { ns, samples };
}

/** The category's resources as kubectl finds them: aggregated discovery of /apis. */
async function categoryPlurals(): Promise<string[]> {
  const doc = await api("GET", "/apis", {
    accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
  });
  type Resource = { resource: string; categories?: string[]; scope: string };
  const groups = doc.body.items as {
    metadata: { name: string };
    versions: { version: string; resources: Resource[] }[];
  }[];
  return groups
    .filter((g) => g.metadata.name === GROUP)
    .flatMap((g) => g.versions[0]!.resources)
    .filter((r) => r.categories?.includes(CATEGORY))
    .map((r) => r.resource);
}

/** DELETE as kubectl sends it (cascade=background). */
async function kubectlDelete(path: string): Promise<void> {
  const res = await api("DELETE", path, {
    body: { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Background" },
  });
  expect([200, 202, 404], JSON.stringify(res.body)).toContain(res.status);
}

/** The custom resources left in the namespace (none once a namespace is gone). */
async function customResourcesLeft(ns: string): Promise<string[]> {
  const left: string[] = [];
  for (const plural of Object.values(PLURALS)) {
    const list = await api("GET", `/apis/${API_VERSION}/namespaces/${ns}/${plural}`);
    for (const item of (list.body.items as { metadata: { name: string } }[] | undefined) ?? [])
      left.push(`${plural}/${item.metadata.name}`);
  }
  return left;
}

/**
 * Waits (at most 60 s) until the namespace holds no custom resource and the service holds
 * nothing the namespace made (only its seed); reports how long it took.
 */
async function finished(label: string, ns: string, started: number, namespaceGone = false): Promise<void> {
  await waitFor(
    `${label}: everything in ${ns} deleted`,
    async () => {
      if (namespaceGone && (await api("GET", `/api/v1/namespaces/${ns}`)).status !== 404) return false;
      const left = await customResourcesLeft(ns);
      if (left.length > 0) return false;
      return JSON.stringify(serviceIds()) === JSON.stringify(baseline);
    },
    FINISH_MS,
  ).catch(async (error: Error) => {
    throw new Error(
      `${error.message}; custom resources left: ${(await customResourcesLeft(ns)).join(", ")}; service: ${JSON.stringify(serviceIds())} (seed ${JSON.stringify(baseline)})`,
    );
  });
  console.info(`[delete-all] ${label}: finished in ${Date.now() - started} ms`);
  expect(await customResourcesLeft(ns)).toEqual([]);
  expect(serviceIds()).toEqual(baseline);
  // Children first: the service refuses (422) to delete an object others still depend on.
  const refused = (await simStats(stack)).filter((r) => r.method === "DELETE" && r.status >= 400);
  expect(refused).toEqual([]);
}

describe("deleting a namespace's Account and resources at once finishes, children first, leaving nothing", () => {
  it("kubectl delete svccloud --all (over HTTP as kubectl does it: the Account's delete comes first)", async () => {
    const { ns } = await fullNamespace();
    const started = Date.now();
    const plurals = await categoryPlurals();
    expect(plurals[0]).toBe("accounts");
    expect(plurals.length).toBe(Object.keys(PLURALS).length);
    for (const plural of plurals) {
      const list = await api("GET", `/apis/${API_VERSION}/namespaces/${ns}/${plural}`);
      for (const item of list.body.items as { metadata: { name: string } }[])
        await kubectlDelete(`/apis/${API_VERSION}/namespaces/${ns}/${plural}/${item.metadata.name}`);
    }
    await finished("delete svccloud --all (HTTP)", ns, started);
  }, 180_000);

  it.skipIf(!kubectlPath)(
    "kubectl delete svccloud --all (kubectl itself)",
    async () => {
      const { ns } = await fullNamespace();
      const started = Date.now();
      const out = await kubectl(["delete", CATEGORY, "--all", "-n", ns, "--wait=false"]);
      expect(out.stderr).toBe("");
      expect(out.stdout).toContain('account.cloud.svc.io "default" deleted');
      await finished("delete svccloud --all (kubectl)", ns, started);
    },
    180_000,
  );

  it("kubectl delete -f deploy/samples/ with the Account (over HTTP: the Account's delete comes in between)", async () => {
    const { ns, samples } = await fullNamespace();
    const started = Date.now();
    const half = Math.floor(samples.length / 2);
    const order = [...samples.slice(0, half), ...credentials(), ...samples.slice(half)];
    for (const m of order) await kubectlDelete(pathOf(m, ns, m.metadata.name));
    await finished("delete -f samples + Account (HTTP)", ns, started);
  }, 180_000);

  it.skipIf(!kubectlPath)(
    "kubectl delete -f deploy/samples/ -f account.yaml (kubectl: the Account last)",
    async () => {
      const { ns } = await fullNamespace();
      await writeFile(
        join(dir, "account.yaml"),
        credentials()
          .map((m) => stringify(m))
          .join("---\n"),
      );
      const started = Date.now();
      const out = await kubectl([
        "delete",
        "-f",
        SAMPLES,
        "-f",
        join(dir, "account.yaml"),
        "-n",
        ns,
        "--wait=false",
      ]);
      expect(out.stderr).toBe("");
      expect(out.stdout.trim().split("\n").at(-1)).toBe('account.cloud.svc.io "default" deleted');
      await finished("delete -f samples -f account.yaml (kubectl)", ns, started);
    },
    180_000,
  );

  it("kubectl delete namespace (over HTTP: the Secret goes at once, the Account with everything else)", async () => {
    const { ns } = await fullNamespace();
    const started = Date.now();
    await kubectlDelete(`/api/v1/namespaces/${ns}`);
    await finished("delete namespace (HTTP)", ns, started, true);
  }, 180_000);

  it.skipIf(!kubectlPath)(
    "kubectl delete namespace (kubectl itself)",
    async () => {
      const { ns } = await fullNamespace();
      const started = Date.now();
      const out = await kubectl(["delete", "namespace", ns, "--wait=false"]);
      expect(out.stdout).toContain(`namespace "${ns}" deleted`);
      await finished("delete namespace (kubectl)", ns, started, true);
    },
    180_000,
  );
});
