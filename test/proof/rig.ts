// The proof rig: a devcluster and a simulator in this process, the operator as a child process
// (`svc-operator run`), so it can be SIGKILLed, restarted and measured (RSS, CPU) on its own.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as k8s from "@kubernetes/client-node";
import { parse } from "yaml";
import { createDevCluster, type DevCluster, type DevClusterOptions } from "../../src/devcluster/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";
import { simHook } from "../support/sim-hook.ts";
import { type Manifest, PLURAL, SCRIPTS_CONFIG_MAP } from "./mixed.ts";

const ROOT = join(import.meta.dirname, "..", "..");
export const REFRESH_TOKEN = "dev-refresh-token";

export interface Rig {
  cluster: DevCluster;
  sim: Simulator;
  kubeconfigPath: string;
  custom: k8s.CustomObjectsApi;
  core: k8s.CoreV1Api;
  /** Closes the devcluster and starts it again from its state file, on the same port. */
  restartCluster(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** `persist`: keep the devcluster's store in a state file (needed by restartCluster; costs CPU at scale). */
export async function startRig(options: {
  dir: string;
  latencyMs?: number;
  persist?: boolean;
  /** Called after each devcluster write (benches time and count the operator's writes by it). */
  onWrite?: DevClusterOptions["onWrite"];
}): Promise<Rig> {
  const stateFile = options.persist ? join(options.dir, "devcluster.json") : undefined;
  const kubeconfigPath = join(options.dir, "kubeconfig");
  const port = await freePort();
  const open = () =>
    createDevCluster({
      port,
      stateFile,
      stateDebounceMs: 200,
      historyLimit: 100_000,
      onWrite: options.onWrite,
    });
  let cluster = await open();
  await writeFile(kubeconfigPath, cluster.kubeconfig, { mode: 0o600 });
  const sim = await createSimulator({ latencyMs: options.latencyMs ?? 0 });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
    // Raw HTTP: client-node's typed serializer drops the x-kubernetes-* keys of plain objects.
    const res = await fetch(`${cluster.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: "POST",
      headers: { authorization: `Bearer ${cluster.token}`, "content-type": "application/json" },
      body: JSON.stringify(parse(await readFile(join(ROOT, "crds", file), "utf8"))),
    });
    if (res.status !== 201) throw new Error(`CRD ${file}: ${res.status} ${await res.text()}`);
  }
  const rig: Rig = {
    cluster,
    sim,
    kubeconfigPath,
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    core: kc.makeApiClient(k8s.CoreV1Api),
    async restartCluster() {
      if (!stateFile) throw new Error("restartCluster needs startRig({persist: true})");
      await cluster.flush();
      await cluster.close();
      cluster = await open();
      rig.cluster = cluster;
    },
    async close() {
      await sim.close();
      await cluster.close();
    },
  };
  return rig;
}

/**
 * A namespace with the credentials Secret and the Account `default` pointing at the simulator
 * (the rig's, or the one at `endpoint`).
 */
export async function accountNamespace(
  rig: Rig,
  ns: string,
  endpoint = rig.sim.url,
  options: { auditTrail?: boolean } = {},
): Promise<void> {
  await rig.core.createNamespace({ body: { metadata: { name: ns } } });
  await rig.core.createNamespacedSecret({
    namespace: ns,
    body: { metadata: { name: "svc-credentials" }, stringData: { refreshToken: REFRESH_TOKEN } },
  });
  await rig.core.createNamespacedConfigMap({ namespace: ns, body: SCRIPTS_CONFIG_MAP });
  await rig.custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: ns,
    plural: "accounts",
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: "Account",
      metadata: { name: "default" },
      spec: {
        endpoint,
        accountId: 1,
        oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
        ...(options.auditTrail === false ? { auditTrail: false } : {}),
      },
    },
  });
}

/** Retries a devcluster call through a restart or a refused connection. */
export async function retrying<T>(fn: () => Promise<T>, attempts = 50): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (error) {
      const code = error instanceof k8s.ApiException ? error.code : 0;
      if (i >= attempts || (code !== 0 && code < 500)) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function applyManifest(rig: Rig, ns: string, m: Manifest): Promise<unknown> {
  return retrying(() =>
    rig.custom
      .createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns,
        plural: PLURAL[m.kind]!,
        body: { apiVersion: `${GROUP}/${VERSION}`, kind: m.kind, metadata: { name: m.name }, spec: m.spec },
      })
      .catch((error) => {
        // Applied already (a retry after a restart cut the answer off).
        if (error instanceof k8s.ApiException && error.code === 409) return undefined;
        throw error;
      }),
  );
}

export function deleteManifest(rig: Rig, ns: string, m: Manifest): Promise<unknown> {
  return retrying(() =>
    rig.custom
      .deleteNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns,
        plural: PLURAL[m.kind]!,
        name: m.name,
      })
      .catch((error) => {
        if (error instanceof k8s.ApiException && error.code === 404) return undefined;
        throw error;
      }),
  );
}

/** Every custom resource of the kinds in a namespace. */
export async function listAll(rig: Rig, ns: string, kinds: string[]): Promise<ManagedObject[]> {
  const out: ManagedObject[] = [];
  for (const kind of kinds) {
    const list = (await retrying(() =>
      rig.custom.listNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns,
        plural: PLURAL[kind]!,
      }),
    )) as { items: ManagedObject[] };
    out.push(...list.items);
  }
  return out;
}

export const isReady = (o: ManagedObject) =>
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true &&
  o.status?.observedGeneration === o.metadata.generation;

export async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `svc-operator run` as a child process; every output line is kept (the secret check reads them). */
export class OperatorProcess {
  child: ChildProcess | undefined;
  readonly lines: string[] = [];
  metricsPort = 0;
  starts = 0;
  private readonly args: string[];

  private readonly env: Record<string, string>;

  /**
   * `entry`: the CLI to run, the sources by default; benches pass the built dist/cli.js.
   * `env`: added to the process's environment (e.g. the Deployment's NODE_OPTIONS).
   * `nodeArgs`: node's flags before the CLI (e.g. the image's ENTRYPOINT's, bench/lib/node-options.ts).
   */
  constructor(
    rig: Rig,
    flags: Record<string, string> = {},
    entry = join(ROOT, "src", "cli.ts"),
    env: Record<string, string> = {},
    nodeArgs: string[] = [],
  ) {
    this.env = env;
    this.args = [
      ...nodeArgs,
      entry,
      "run",
      "--kubeconfig",
      rig.kubeconfigPath,
      ...Object.entries({ "log-level": "info", ...flags }).flatMap(([k, v]) => [`--${k}`, v]),
    ];
  }

  /** `flags`: for this start only, over the constructor's (the last of a repeated flag wins). */
  async start(flags: Record<string, string> = {}): Promise<void> {
    this.metricsPort = await freePort();
    const child = spawn(
      process.execPath,
      [
        ...this.args,
        ...Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]),
        "--metrics-address",
        `127.0.0.1:${this.metricsPort}`,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...this.env },
      },
    );
    this.child = child;
    this.starts++;
    // Never outlive the process that started it (a bench or test that crashed).
    const reap = () => child.kill("SIGKILL");
    process.once("exit", reap);
    child.once("exit", () => process.off("exit", reap));
    createInterface({ input: child.stdout! }).on("line", (l) => this.lines.push(l));
    createInterface({ input: child.stderr! }).on("line", (l) => this.lines.push(l));
    await until(
      "operator /readyz",
      async () => {
        if (child.exitCode !== null)
          throw new Error(`operator exited with ${child.exitCode}: ${this.lines.slice(-5).join("\n")}`);
        return fetch(`http://127.0.0.1:${this.metricsPort}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      30_000,
      100,
    );
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** SIGKILL (no shutdown) or SIGTERM; resolves when the process is gone. */
  async kill(signal: NodeJS.Signals = "SIGKILL", graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    // A graceful stop gets `graceMs` (its in-flight reconciles, a CPU profile to write), then it is killed.
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Peak resident set size (VmHWM) of the running process, in MB. Linux only. */
  async peakRssMb(): Promise<number> {
    const status = await readFile(`/proc/${this.pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return Math.round(kb / 1024);
  }

  async rssMb(): Promise<number> {
    const status = await readFile(`/proc/${this.pid}/status`, "utf8");
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024);
  }

  /** User + system CPU time of the process so far, in ms (clock ticks of 10 ms). */
  async cpuMs(): Promise<number> {
    const stat = await readFile(`/proc/${this.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }

  /** How many series of a metric (whose line passes `having`) have the value `value`. */
  async seriesWithValue(name: string, having: (line: string) => boolean, value: number): Promise<number> {
    const text = await this.scrape(name);
    let n = 0;
    for (const line of text.split("\n")) {
      if (line.startsWith(`${name}{`) && having(line) && Number(line.split(" ").at(-1)) === value) n++;
    }
    return n;
  }

  /** Each series of a family by its label set (`{map="queue.delayed"}`; `""` for none). */
  async series(name: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const line of (await this.scrape(name)).split("\n")) {
      if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
      const space = line.lastIndexOf(" ");
      out[line.slice(name.length, space)] = Number(line.slice(space + 1));
    }
    return out;
  }

  /** One metric family from /metrics (`name[]`: the operator renders only that one). */
  private async scrape(name: string): Promise<string> {
    try {
      return await (
        await fetch(`http://127.0.0.1:${this.metricsPort}/metrics?name[]=${encodeURIComponent(name)}`)
      ).text();
    } catch (error) {
      // An operator that died (out of memory, a crash) says why in its last lines, not in the fetch's error.
      const child = this.child;
      if (child && (child.exitCode !== null || child.signalCode !== null))
        throw new Error(
          `the operator exited (${child.exitCode ?? child.signalCode}); its last lines:\n${this.lines.slice(-15).join("\n")}`,
        );
      throw error;
    }
  }

  /** Sum of a Prometheus metric over its series (those whose labels contain `having`, when given). */
  /** Sum of the family's series whose line holds `having` and not `without`. */
  async metric(name: string, having = "", without = ""): Promise<number> {
    const text = await this.scrape(name);
    let sum = 0;
    for (const line of text.split("\n")) {
      if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
      if (having && !line.includes(having)) continue;
      if (without && line.includes(without)) continue;
      sum += Number(line.split(" ").at(-1));
    }
    return sum;
  }
}

/** Replaces the simulator's fault set (`{}` clears it). */
export async function setFaults(rig: Rig, faults: Record<string, number>): Promise<void> {
  const res = await simHook(rig.sim, "faults", faults);
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

export async function waitAccountReady(rig: Rig, ns: string, timeoutMs = 30_000): Promise<void> {
  await until(
    `Account ${ns}/default Ready`,
    async () => {
      const a = (await retrying(() =>
        rig.custom.getNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          namespace: ns,
          plural: "accounts",
          name: "default",
        }),
      )) as ManagedObject;
      return isReady(a);
    },
    timeoutMs,
    100,
  );
}
