import { join, resolve } from "node:path";
import * as z from "zod";
import { checkPorts, defineCommand, flag, listenError, UsageError } from "../lib/cli/index.ts";
import { defaultRegionPort } from "../simulator/command.ts";
import { BARE_APISERVER_NOTE, DEMO_NAMESPACE } from "./names.ts";
import type { DevSession } from "./stack.ts";

/** deploy/samples of the package (src/dev or dist/dev -> the package root). */
export const DEFAULT_SAMPLES = join(import.meta.dirname, "..", "..", "deploy", "samples");

const schema = z
  .object({
    host: flag.host(),
    "cluster-port": flag.port(6443),
    "simulator-port": flag.port(9292),
    // Undefined until resolved below: it follows --simulator-port unless given, as the simulator's does.
    "region-port": flag.port(0).removeDefault().optional(),
    "metrics-port": flag.port(8080),
    "state-dir": z.string().min(1, "must not be empty").optional(),
    "kube-apiserver-assets": z.string().min(1, "must not be empty").optional(),
    samples: z.string().min(1, "must not be empty").default(DEFAULT_SAMPLES),
    "no-samples": z.boolean().default(false),
    "log-level": flag.logLevel(),
  })
  .strict()
  .refine((o) => !(o["state-dir"] && o["kube-apiserver-assets"]), {
    message:
      "--state-dir keeps the devcluster's state; a real kube-apiserver's etcd starts empty each time: pass one or the other",
    path: ["state-dir"],
  })
  .transform((o) => ({ ...o, "region-port": o["region-port"] ?? defaultRegionPort(o["simulator-port"]) }));

/** The flags naming a port, in the order the servers start. */
const PORT_FLAGS = ["cluster-port", "simulator-port", "region-port", "metrics-port"] as const;

export type DevCommandOptions = z.output<typeof schema>;

/**
 * Where the real apiserver's binaries are, if the playground runs on one: the flag, else
 * KUBEBUILDER_ASSETS (envtest's convention). The variable does not combine with --state-dir.
 */
export function kubeApiserverAssets(
  options: Pick<DevCommandOptions, "kube-apiserver-assets" | "state-dir">,
  env: NodeJS.ProcessEnv,
): { dir: string; from: "--kube-apiserver-assets" | "KUBEBUILDER_ASSETS" } | undefined {
  const flag = options["kube-apiserver-assets"];
  if (flag) return { dir: flag, from: "--kube-apiserver-assets" };
  const variable = env.KUBEBUILDER_ASSETS;
  if (!variable) return undefined;
  if (options["state-dir"])
    throw new UsageError(
      "--state-dir keeps the devcluster's state, but KUBEBUILDER_ASSETS is set and asks for a real kube-apiserver, whose etcd starts empty each time: unset KUBEBUILDER_ASSETS or drop --state-dir",
    );
  return { dir: variable, from: "KUBEBUILDER_ASSETS" };
}

/** Resolves on SIGINT or SIGTERM; injectable so tests can stop the command. */
export type StopSignal = () => Promise<void>;

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}

/** The kubectl lines printed at start: what a newcomer types next (only objects that exist). */
export function kubectlHints(kubeconfigPath: string, samplesDir: string | undefined): string[] {
  return [
    "Use the cluster with kubectl:",
    `  export KUBECONFIG=${kubeconfigPath}`,
    `  kubectl get svccloud -n ${DEMO_NAMESPACE}`,
    samplesDir
      ? `  kubectl describe networks.cloud.svc.io main -n ${DEMO_NAMESPACE}`
      : `  kubectl describe accounts.cloud.svc.io default -n ${DEMO_NAMESPACE}`,
    `  kubectl wait --for=condition=Ready svccloud --all -n ${DEMO_NAMESPACE} --timeout=60s`,
    `  kubectl get events -n ${DEMO_NAMESPACE}`,
    ...(samplesDir ? [`  kubectl apply -n ${DEMO_NAMESPACE} -f ${samplesDir}`] : []),
  ];
}

export function devCommand(
  stop: StopSignal = waitForSignal,
  isTty: () => boolean = () => process.stdout.isTTY === true,
) {
  return defineCommand({
    name: "dev",
    summary:
      "the whole loop on one machine: devcluster + simulator + operator, CRDs installed, samples applied, a live table",
    flags: {
      host: { type: "string", description: "address every server binds", default: "127.0.0.1" },
      "cluster-port": {
        type: "string",
        description: "devcluster (Kubernetes API) port, 0 = any free port",
        default: "6443",
      },
      "simulator-port": {
        type: "string",
        description: "simulator (service API) port, 0 = any free port",
        default: "9292",
      },
      "region-port": {
        type: "string",
        description: "simulator's wrong-region port, 0 = any free port",
        default: "--simulator-port + 1, or any free port with --simulator-port 0",
      },
      "metrics-port": {
        type: "string",
        description: "operator /metrics, /healthz, /readyz port, 0 = any free port",
        default: "8080",
      },
      "state-dir": {
        type: "string",
        description:
          "keep the devcluster's and the simulator's state (and kubeconfig, log) here across restarts",
      },
      "kube-apiserver-assets": {
        type: "string",
        description:
          "a folder holding kube-apiserver and etcd: run on a real apiserver instead of the devcluster",
        default: "$KUBEBUILDER_ASSETS if set",
      },
      samples: {
        type: "string",
        description: "directory of sample manifests to apply",
        default: "deploy/samples",
      },
      "no-samples": {
        type: "boolean",
        description: "apply no samples (only the namespace, Secret and Account)",
      },
      "log-level": {
        type: "string",
        description: "operator log level (the log goes to a file)",
        default: "info",
      },
    },
    schema,
    async run(options, io) {
      const t0 = performance.now();
      const tty = isTty();
      const write = (text: string) => process.stdout.write(text);
      // Loaded when the command runs: the built CLI keeps each command's code in its own chunk.
      const [{ startDev }, { restoreHint, seededLines }] = await Promise.all([
        import("./stack.ts"),
        import("./banner.ts"),
      ]);
      const ports = PORT_FLAGS.map((name) => ({
        flag: `--${name} ${options[name]}`,
        host: options.host,
        port: options[name],
      }));
      // Every port first: one run names all that are taken, before anything starts.
      const taken = await checkPorts(ports, `--host ${options.host}`);
      if (taken) throw taken;
      const assets = kubeApiserverAssets(options, process.env);
      let session: DevSession;
      try {
        session = await startDev({
          host: options.host,
          clusterPort: options["cluster-port"],
          simulatorPort: options["simulator-port"],
          regionPort: options["region-port"],
          metricsPort: options["metrics-port"],
          // Absolute, so the printed KUBECONFIG works from any directory, not only this one.
          stateDir: options["state-dir"] === undefined ? undefined : resolve(options["state-dir"]),
          kubeApiserverAssets: assets?.dir,
          samplesDir: options["no-samples"] ? undefined : options.samples,
          logLevel: options["log-level"],
        });
      } catch (error) {
        const usage = listenError(error, ports, `--host ${options.host}`);
        if (usage) throw usage;
        const e = error as Error;
        if (e.name === "SampleError" || e.name === "SeedError" || e.name === "HookTokenError")
          throw new UsageError(e.message);
        throw error;
      }
      const metrics = session.operator.healthAddress;
      io.out(
        `svc-operator dev: ${session.cluster.name} ${session.cluster.url}, simulator ${session.sim.url}`,
      );
      if (assets) io.out(`  ${BARE_APISERVER_NOTE}`);
      if (assets?.from === "KUBEBUILDER_ASSETS")
        io.out("  (from KUBEBUILDER_ASSETS: unset it to run on the devcluster)");
      if (metrics) io.out(`  operator metrics: http://${metrics.host}:${metrics.port}/metrics`);
      io.out(
        options["state-dir"]
          ? `  state: ${session.workDir} (kept across restarts)`
          : "  state: temporary (pass --state-dir DIR to keep it across restarts)",
      );
      io.out(`  operator log: ${session.logFile}`);
      io.out(
        `  simulator test hooks: ${session.sim.url}/__sim/..., header X-Simulator-Token from ${session.simulatorTokenFile}`,
      );
      io.out("");
      const samplesDir = options["no-samples"] ? undefined : options.samples;
      for (const line of kubectlHints(session.kubeconfigPath, samplesDir)) io.out(line);
      io.out("");
      for (const line of restoreHint(session.demoFile, samplesDir)) io.out(line);
      io.out("");
      for (const line of seededLines(session.seeded)) io.out(line);
      io.out("");
      io.out("Ctrl-C stops everything.");
      io.out("");

      const { LiveTable } = await import("./table.ts");
      const table = new LiveTable({ write, tty, columns: () => process.stdout.columns });
      const n = session.samples.length;
      let readyAt: number | undefined;
      const footer = () => {
        const seconds = ((performance.now() - t0) / 1000).toFixed(1);
        if (n === 0) return "no samples applied";
        if (readyAt !== undefined)
          return `all ${n} samples Ready in ${readyAt.toFixed(1)} s (from process start)`;
        return `waiting for ${n} samples to be Ready... ${seconds} s`;
      };
      const tick = () => {
        if (readyAt === undefined && n > 0 && session.allReady()) {
          // performance.now() counts from process start: what `npm run dev` makes a user wait.
          readyAt = performance.now() / 1000;
          table.update(session.rows(), footer());
          if (!tty) io.out(footer());
          return;
        }
        table.update(session.rows(), footer());
      };
      tick();
      const timer = setInterval(tick, tty ? 250 : 100);
      await stop();
      clearInterval(timer);
      table.update(session.rows(), footer());
      io.out("");
      io.out(`stopping: operator, simulator, ${session.cluster.name}...`);
      await session.stop();
      io.out("stopped");
      return 0;
    },
  });
}

export const dev = devCommand();
