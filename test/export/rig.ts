import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceApi } from "../../src/api/index.ts";
import { main } from "../../src/cli.ts";
import { applyManifest, type Manifest as KubeManifest } from "../../src/dev/apply.ts";
import { KubeHttp } from "../../src/dev/kube-http.ts";
import { managedKinds } from "../../src/kinds/index.ts";
import { readManifests } from "../../src/plan/manifests.ts";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import type { ResourceModule, SimulatorApi } from "../../src/simulator/resource.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { access } from "../../src/simulator/roles.ts";
import { createCr, type Stack, serviceApi, simStats, startStack } from "../operator/harness.ts";
import { brownfield } from "./brownfield.ts";

/** A write the simulator answered: method, path and the parameters it was sent. */
export interface Write {
  method: string;
  path: string;
  params: Record<string, unknown>;
}

/**
 * The simulator's resource modules, with every write recorded (method, path, parameters) as the
 * simulator parsed it: the request log the consistency test compares plan with. `deny` makes the
 * GETs of a path template answer 403, as a missing role does.
 */
export function recordingResources(log: Write[], deny: string[] = []): ResourceModule[] {
  return resources.map((module) => ({
    ...module,
    register(sim: SimulatorApi) {
      module.register({
        ...sim,
        route: (def) =>
          sim.route({
            ...def,
            access:
              def.method === "GET" && deny.includes(def.path)
                ? access.anyOf("nobody-has-this-role")
                : def.access,
            handler: async (ctx) => {
              const answer = await def.handler(ctx);
              // Logging in (a public route) writes nothing of the account.
              if (def.method !== "GET" && def.access !== "public" && answer.status < 300)
                log.push({
                  method: def.method,
                  path: ctx.path,
                  params: ctx.params as Record<string, unknown>,
                });
              return answer;
            },
          }),
      });
    },
  }));
}

/** What the CLI printed and its exit code. */
export interface Ran {
  code: number;
  out: string;
  err: string;
}

export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env,
    ...(stdin === undefined ? {} : { stdin: async () => stdin }),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const CLI = join(import.meta.dirname, "..", "..", "src", "cli.ts");

/**
 * The CLI run as a real process (`node src/cli.ts ...`), to its exit: what a user sees, the
 * top-level error handling included. `env` is the whole environment (nothing inherited).
 */
export async function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code: code ?? -1, out, err };
}

/** The stack's kubeconfig, written to a file (what --kubeconfig takes). */
export async function kubeconfigFile(stack: Stack): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-kubeconfig-"));
  const path = join(dir, "kubeconfig");
  await writeFile(path, stack.cluster.kubeconfig);
  return path;
}

/** A namespace with the credentials Secret and an Account `default` pointing at the simulator. */
export async function accountNamespace(stack: Stack, namespace: string): Promise<void> {
  await stack.core.createNamespace({ body: { metadata: { name: namespace } } });
  await stack.core.createNamespacedSecret({
    namespace,
    body: { metadata: { name: "svc-credentials" }, stringData: { refreshToken: "dev-refresh-token" } },
  });
  await createCr(stack, namespace, "Account", "default", {
    endpoint: stack.sim.url,
    accountId: 1,
    oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
  });
}

const PLURALS = new Map([
  ["Account", "accounts"],
  ["ConfigMap", "configmaps"],
  ...managedKinds.map((k) => [k.kind, k.plural] as [string, string]),
]);

/** `kubectl apply -k DIR` (client-side apply, as kubectl does it): every object of the kustomization. */
export async function applyDirectory(stack: Stack, dir: string): Promise<KubeManifest[]> {
  const kube = new KubeHttp({ url: stack.cluster.url, token: stack.cluster.token });
  const applied: KubeManifest[] = [];
  for (const { object } of await readManifests(dir, async () => "")) {
    const m = object as unknown as KubeManifest;
    await applyManifest(kube, m, { plural: PLURALS.get(m.kind)!, namespaced: true });
    applied.push(m);
  }
  return applied;
}

/**
 * What brownfield.md tells a user to do before switching stored script attachments to Manage: for
 * each, fetch the file from its `download_url` and create the ConfigMap its `contentFrom` names.
 * Only reads of the service (a show, a download).
 */
export async function createContentConfigMaps(
  stack: Stack,
  namespace: string,
  dir: string,
): Promise<string[]> {
  const made: string[] = [];
  for (const body of await contentConfigMaps(serviceApi(stack), await readManifests(dir, async () => ""))) {
    await stack.core.createNamespacedConfigMap({ namespace, body });
    made.push(body.metadata.name);
  }
  return made;
}

/** The ConfigMaps the stored script attachments among `manifests` name, each with the file's content. */
export async function contentConfigMaps(api: ServiceApi, manifests: { object: Record<string, unknown> }[]) {
  const out: {
    apiVersion: "v1";
    kind: "ConfigMap";
    metadata: { name: string };
    binaryData: Record<string, string>;
  }[] = [];
  for (const { object } of manifests) {
    if (object.kind !== "StoredScriptAttachment") continue;
    const href = (object.metadata as { annotations: Record<string, string> }).annotations[Annotation.href]!;
    const ref = (object.spec as { contentFrom: { configMapKeyRef: { name: string; key: string } } })
      .contentFrom.configMapKeyRef;
    const { download_url } = await api.storedScriptAttachments.show(href);
    const content = Buffer.from(await (await fetch(download_url!)).arrayBuffer());
    out.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: ref.name },
      binaryData: { [ref.key]: content.toString("base64") },
    });
  }
  return out;
}

/** Writes the simulator counted, other than logging in. */
export async function mutatingCalls(stack: Stack): Promise<string[]> {
  return (await simStats(stack))
    .filter((r) => r.method !== "GET" && r.route !== "/api/oauth2" && r.route !== "/api/session")
    .map((r) => `${r.method} ${r.route} ${r.status} x${r.count}`);
}

/** The devcluster's current resourceVersion: it moves with every write, and with nothing else. */
export async function clusterVersion(stack: Stack): Promise<string> {
  const list = await stack.core.listNamespace();
  return String(list.metadata?.resourceVersion);
}

/** A stack whose simulator logs its writes, the brownfield account in it, and that account exported. */
export interface Exported {
  stack: Stack;
  /** The simulator's writes (recordingResources). */
  writes: Write[];
  /** The export's directory, and the kubeconfig file of the stack. */
  dir: string;
  kubeconfig: string;
}

/**
 * Starts a stack, makes the brownfield account, an Account `default` in `namespace`, and exports
 * the account from that Account with `--manage` and the given flags.
 */
export async function exportedStack(namespace: string, flags: string[] = []): Promise<Exported> {
  const writes: Write[] = [];
  const stack = await startStack({ simulator: { resources: recordingResources(writes) } });
  await brownfield(serviceApi(stack));
  await accountNamespace(stack, namespace);
  const kubeconfig = await kubeconfigFile(stack);
  const dir = await mkdtemp(join(tmpdir(), "svc-plan-"));
  const r = await cli([
    "export",
    "--kubeconfig",
    kubeconfig,
    "--account",
    `${namespace}/default`,
    "--out",
    dir,
    "--manage",
    ...flags,
  ]);
  if (r.code !== 0) throw new Error(`export failed (${r.code}): ${r.err}`);
  await createContentConfigMaps(stack, namespace, dir);
  return { stack, writes, dir, kubeconfig };
}
