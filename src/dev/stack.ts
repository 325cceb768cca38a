import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The module, not the index (which loads every generated class: scripts/build.ts).
import { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import { pino } from "pino";
import { crdSources } from "../kinds/index.ts";
import { createOperator } from "../run/index.ts";
import { loadConfig } from "../runtime/config/index.ts";
import { buildCrd } from "../runtime/crd/index.ts";
import type { Operator } from "../runtime/manager/index.ts";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { Annotation, GROUP, isTrue } from "../runtime/sdk/index.ts";
import { operatorLogger, operatorRegistry } from "../runtime/telemetry/index.ts";
import { resources } from "../simulator/resources/index.ts";
import { type HrefGroup, seededHrefs } from "../simulator/seeded-hrefs.ts";
import { createSimulator, type Simulator } from "../simulator/server.ts";
import { applyCrd, type Collection, type Manifest } from "./apply.ts";
import { type PlaygroundCluster, startPlaygroundCluster } from "./cluster.ts";
import { applyDemoNamespace, DEMO_FILE, writeDemoFile } from "./demo-namespace.ts";
import { KubeHttp } from "./kube-http.ts";
import { DEMO_NAMESPACE } from "./names.ts";
import { applySamples, checkSamples, isSupport, loadSampleDocuments } from "./samples.ts";
import { playgroundSeed } from "./seed.ts";
import { loadSimulatorState, saveSimulatorState, seedOf, writeOwnerOnly } from "./state.ts";
import { type Row, rowOf } from "./table.ts";

export { DEMO_NAMESPACE };

export interface DevOptions {
  host: string;
  clusterPort: number;
  simulatorPort: number;
  regionPort: number;
  metricsPort: number;
  /** Keeps the devcluster's and the simulator's state here across restarts; temporary when absent. */
  stateDir?: string;
  /** A folder holding kube-apiserver and etcd: the playground runs on a real apiserver, not the devcluster. */
  kubeApiserverAssets?: string;
  /** Directory of sample manifests; none applied when undefined (--no-samples). */
  samplesDir?: string;
  logLevel: string;
}

/** One running dev loop: devcluster (or a real apiserver) + simulator + operator in this process. */
export interface DevSession {
  cluster: PlaygroundCluster;
  sim: Simulator;
  operator: Operator;
  workDir: string;
  kubeconfigPath: string;
  /** Holds the simulator's test-hook token (X-Simulator-Token), mode 0600. */
  simulatorTokenFile: string;
  logFile: string;
  /** Namespace demo, its Secret and its Account, for `kubectl apply` after the namespace is deleted. */
  demoFile: string;
  /** What the simulator held at start that a manifest names by href (clouds, datacenters, ...). */
  seeded: HrefGroup[];
  samples: Manifest[];
  /** The Account and every sample as the operator's cache sees them now. */
  rows(): Row[];
  /** Every sample Ready for its current generation, reconciled by this run. */
  allReady(): boolean;
  stop(): Promise<void>;
}

const SIM_STATE = "simulator.json";
const SIM_TOKEN = "simulator-token";

/**
 * Starts everything in dependency order: simulator (seeded from the saved state, else the
 * playground's seed), devcluster (its own state file), CRDs, the operator, then namespace
 * `demo` with its Secret and Account, then the samples. Every sample carries a fresh
 * reconcile-requested-at, so Ready is only reported once this run's operator has looked at it
 * (not from a saved status).
 */
export async function startDev(options: DevOptions): Promise<DevSession> {
  const workDir = options.stateDir ?? (await mkdtemp(join(tmpdir(), "svc-operator-dev-")));
  await mkdir(workDir, { recursive: true });
  const logFile = join(workDir, "operator.log");
  const log = operatorLogger(options.logLevel, pino.destination({ dest: logFile, sync: false, mkdir: true }));
  const simStateFile = join(workDir, SIM_STATE);
  const started: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const s of started.reverse()) await s.close().catch(() => {});
  };
  try {
    const sources = crdSources();
    const collections = new Map<string, Collection>(
      sources.map((s) => [s.kind, { plural: s.plural, namespaced: true }]),
    );
    // Read first: a file that is not YAML, or not one of our kinds, stops before anything starts.
    const documents = options.samplesDir
      ? (await loadSampleDocuments(options.samplesDir, new Set(collections.keys()), GROUP)).map((s) => ({
          ...s,
          manifest: { ...s.manifest, metadata: { ...s.manifest.metadata, namespace: DEMO_NAMESPACE } },
        }))
      : [];
    const savedState = options.stateDir ? await loadSimulatorState(simStateFile, resources) : undefined;
    const seed = savedState ?? playgroundSeed(resources);
    const sim = await createSimulator({
      host: options.host,
      port: options.simulatorPort,
      regionPort: options.regionPort,
      seed,
      logger: log.child({ component: "simulator" }, { level: "warn" }),
    });
    started.push(sim);
    await writeOwnerOnly(join(workDir, SIM_TOKEN), `${sim.hookToken}\n`);
    const cluster = await startPlaygroundCluster({
      host: options.host,
      port: options.clusterPort,
      workDir,
      keepState: options.stateDir !== undefined,
      kubeApiserverAssets: options.kubeApiserverAssets,
      log: (level, message, fields) => log[level]({ component: "devcluster", ...fields }, message),
    });
    started.push(cluster);
    const kube = new KubeHttp({ url: cluster.url, token: cluster.token, caCert: cluster.caCert });
    started.push(kube);

    for (const source of sources) await applyCrd(kube, buildCrd(source) as Manifest);

    // The Account points at this run's simulator before the operator reads it.
    const account = collections.get("Account")!;
    await applyDemoNamespace(kube, sim.url, account);
    await writeDemoFile(join(workDir, DEMO_FILE), sim.url, account);
    // A sample the CRDs refuse stops here, before the operator starts and before any is written.
    await checkSamples(kube, documents, collections);

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(cluster.kubeconfig);
    const operator = createOperator({
      config: loadConfig(
        { "metrics-address": `${options.host}:${options.metricsPort}`, "log-level": options.logLevel },
        {},
      ),
      kubeConfig,
      log,
      registry: operatorRegistry(process.env),
    });
    const operatorCloser = { close: () => operator.stop(5_000) };
    started.push(operatorCloser);
    await operator.start();

    const requestedAt = new Date().toISOString();
    // A fresh reconcile-requested-at, but not in the applied configuration: it is dev's nudge
    // (as a `kubectl annotate` would be), which a later `kubectl apply -f` of the file keeps.
    await applySamples(kube, documents, collections, {
      extraAnnotations: { [Annotation.reconcileRequestedAt]: requestedAt },
    });
    // What the table shows and waits for: the custom resources (a ConfigMap beside them has no Ready).
    const samples = documents.map((s) => s.manifest).filter((m) => !isSupport(m));

    // The simulator has no change hook: save its store when it changed, and at stop.
    let saved = "";
    const save = async () => {
      const state = seedOf(sim.store, resources);
      const text = JSON.stringify(state);
      if (text === saved) return;
      saved = text;
      await saveSimulatorState(simStateFile, state);
    };
    const saver = options.stateDir ? setInterval(() => void save().catch(() => {}), 1_000) : undefined;

    const get = (kind: string, name: string): ManagedObject | undefined =>
      operator.store.get(kind, DEMO_NAMESPACE, name);
    return {
      cluster,
      sim,
      operator,
      workDir,
      kubeconfigPath: join(workDir, "kubeconfig"),
      simulatorTokenFile: join(workDir, SIM_TOKEN),
      logFile,
      demoFile: join(workDir, DEMO_FILE),
      seeded: seededHrefs(sim.store),
      samples,
      rows: () => [
        rowOf("Account", "default", get("Account", "default")),
        ...samples.map((s) => rowOf(s.kind, s.metadata.name, get(s.kind, s.metadata.name))),
      ],
      allReady: () =>
        samples.every((s) => {
          const o = get(s.kind, s.metadata.name);
          return (
            o !== undefined &&
            isTrue(o.status?.conditions, "Ready") &&
            o.status?.observedGeneration === o.metadata.generation &&
            o.status?.lastHandledReconcileAt === requestedAt
          );
        }),
      stop: async () => {
        if (saver) clearInterval(saver);
        // Operator first (in-flight reconciles finish), then the simulator's final state.
        await operator.stop(5_000).catch(() => {});
        started.splice(started.indexOf(operatorCloser), 1);
        if (options.stateDir) await save();
        await cluster.flush().catch(() => {});
        await closeAll();
        await new Promise<void>((resolve) => log.flush(() => resolve()));
        if (!options.stateDir) await rm(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await closeAll();
    if (!options.stateDir) await rm(workDir, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}
