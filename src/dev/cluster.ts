import { join } from "node:path";
import { startControlPlane } from "../control-plane/index.ts";
import { createDevCluster } from "../devcluster/index.ts";
import { writeOwnerOnly } from "./state.ts";

/** The Kubernetes API the playground runs on: the devcluster, or a real kube-apiserver. */
export interface PlaygroundCluster {
  /** What it is, for the banner. */
  name: "devcluster" | "kube-apiserver";
  url: string;
  /** An admin's bearer token and the CA of the serving certificate, for the playground's own calls. */
  token: string;
  caCert: string;
  /** An admin kubeconfig (YAML), also written to the work directory. */
  kubeconfig: string;
  /** Writes what must survive a restart (the devcluster's state file; nothing for the real one). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  host: string;
  port: number;
  workDir: string;
  /** Keep the devcluster's objects across restarts (never with a real apiserver: its etcd is temporary). */
  keepState: boolean;
  /** A folder holding kube-apiserver and etcd (KUBEBUILDER_ASSETS): a real apiserver instead of the devcluster. */
  kubeApiserverAssets?: string;
  log: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
}

/** Starts the devcluster, or a real kube-apiserver and etcd from `kubeApiserverAssets`. */
export async function startPlaygroundCluster(options: ClusterOptions): Promise<PlaygroundCluster> {
  const kubeconfigPath = join(options.workDir, "kubeconfig");
  if (options.kubeApiserverAssets) {
    const plane = await startControlPlane(options.kubeApiserverAssets, {
      host: options.host,
      port: options.port,
    });
    await writeOwnerOnly(kubeconfigPath, plane.kubeconfig);
    return {
      name: "kube-apiserver",
      url: plane.url,
      token: plane.token,
      caCert: plane.ca,
      kubeconfig: plane.kubeconfig,
      flush: async () => {},
      close: () => plane.stop(),
    };
  }
  const cluster = await createDevCluster({
    host: options.host,
    port: options.port,
    tls: true,
    kubeconfigPath,
    ...(options.keepState ? { stateFile: join(options.workDir, "devcluster.json") } : {}),
    log: options.log,
  });
  return {
    name: "devcluster",
    url: cluster.url,
    token: cluster.token,
    caCert: cluster.caCert!,
    kubeconfig: cluster.kubeconfig,
    flush: () => cluster.flush(),
    close: () => cluster.close(),
  };
}
