import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSafeServer, type ServerLimits } from "../lib/http/index.ts";
import { type Admitter, crdAdmission, defaultPresenter, type Presenter } from "./admission-adapter.ts";
import { Controllers } from "./controllers.ts";
import { type DenyConfig, DenyList, type DenyRule } from "./deny.ts";
import { createHandler, internalError } from "./handler.ts";
import { sendError } from "./http-util.ts";
import { kubeconfigYaml, writeKubeconfig } from "./kubeconfig.ts";
import { type Clock, Operations } from "./operations.ts";
import { Registry } from "./registry.ts";
import { type Credentials, loadState, StateFile } from "./state-file.ts";
import { Store } from "./store.ts";
import { generateTls, type TlsMaterial } from "./tls.ts";
import { WatchHub } from "./watch.ts";

export type LogFn = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface DevClusterOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). The CLI defaults to 6443. */
  port?: number;
  /** Bearer token; the state file's, else a random one. */
  token?: string;
  /**
   * Serve HTTPS with a self-signed certificate (kept in the state file) that the kubeconfig
   * trusts: needed for kubectl, which sends tokens only over TLS. Default false (plain HTTP).
   */
  tls?: boolean | TlsMaterial;
  /** Where the store is persisted (atomically, debounced) and loaded from at start. */
  stateFile?: string;
  stateDebounceMs?: number;
  /** Where to write a kubeconfig for this server. */
  kubeconfigPath?: string;
  /** Changes kept per resource for watches; older resourceVersions get 410 Gone. Default 10,000. */
  historyLimit?: number;
  /** Interval of BOOKMARK events on watches that allow them. Default 60 s. */
  bookmarkIntervalMs?: number;
  /** Watches without timeoutSeconds end after this many seconds times 1-2 (real default 1800). */
  minRequestTimeoutSeconds?: number;
  /** A watch whose client leaves more than this unsent is closed. Default 4 MiB. */
  watchUnsentLimitBytes?: number;
  /**
   * The HTTP server's timeouts and connection cap. Default SERVER_LIMITS: 10 s for the headers
   * and for the TLS handshake, 1,000 connections.
   */
  serverLimits?: Partial<ServerLimits>;
  clock?: Clock;
  admitter?: Admitter;
  presenter?: Presenter;
  log?: LogFn;
  /**
   * Called after every stored change (storage key such as `cloud.svc.io/widgets`, the change, the
   * object as stored): what a bench times Kubernetes writes by. Must not throw or block.
   */
  onWrite?: (
    key: string,
    type: "ADDED" | "MODIFIED" | "DELETED",
    object: Record<string, unknown>,
    old?: Record<string, unknown>,
  ) => void;
  /** Requests to refuse with kube-apiserver's 403 (test-only; see deny.ts). Default none. */
  deny?: DenyRule[];
}

export interface DevCluster {
  url: string;
  token: string;
  /** The serving certificate (PEM), when serving HTTPS. */
  caCert?: string;
  /** The kubeconfig YAML (also written to kubeconfigPath when given). */
  kubeconfig: string;
  kubeconfigPath?: string;
  /** Cuts all open watch connections (the fault hook, without HTTP). */
  cutWatches(mode?: "reset" | "close"): number;
  /** Replaces the requests refused with a 403 (the deny hook, without HTTP); `{rules: []}` clears. */
  deny(config: DenyConfig): void;
  /** Writes the state file now (when there is one). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** Starts a devcluster: an HTTP server that behaves as a kube-apiserver for what the operator uses. */
export async function createDevCluster(options: DevClusterOptions = {}): Promise<DevCluster> {
  const log: LogFn = options.log ?? (() => {});
  let stateFile: StateFile | undefined;
  const loaded = options.stateFile ? await loadState(options.stateFile) : undefined;
  const token = options.token ?? loaded?.credentials?.token ?? randomBytes(24).toString("base64url");
  const host = options.host ?? "127.0.0.1";
  let tls: TlsMaterial | undefined;
  if (typeof options.tls === "object") tls = options.tls;
  else if (options.tls) tls = loaded?.credentials?.tls ?? (await generateTls(host));
  const credentials: Credentials = { token };
  if (tls) credentials.tls = tls;
  const store = new Store({
    historyLimit: options.historyLimit,
    onWrite: (key, event) => {
      stateFile?.changed();
      options.onWrite?.(key, event.type, event.object, event.old);
    },
    onListenerError: (error) => log("error", "watch delivery failed", { error: String(error) }),
  });
  const registry = new Registry();
  const controllers = new Controllers({
    onError: (error) => log("error", "controller pass failed", { error: String(error) }),
  });
  const ops = new Operations({
    store,
    registry,
    admitter: options.admitter ?? crdAdmission,
    clock: options.clock ?? { now: () => new Date() },
    afterWrite: (type, object, deleted) => controllers.afterWrite(type, object, deleted),
  });
  controllers.attach(ops);

  if (options.stateFile) {
    if (loaded) {
      store.restore(loaded.snapshot);
      for (const crd of store.list("apiextensions.k8s.io/customresourcedefinitions")) registry.serveCrd(crd);
      log("info", "state loaded", {
        path: options.stateFile,
        resourceVersion: loaded.snapshot.resourceVersion,
      });
      controllers.schedule();
    }
    stateFile = new StateFile({
      path: options.stateFile,
      snapshot: () => store.snapshot(),
      debounceMs: options.stateDebounceMs,
      credentials,
      onError: (error) => log("error", "state file write failed", { error: String(error) }),
    });
    stateFile.changed();
  }
  const nsType = registry.find("", "v1", "namespaces")!;
  for (const name of DEFAULT_NAMESPACES) {
    if (!store.get(nsType.storageKey, undefined, name)) {
      ops.create({ type: nsType, version: "v1", manager: "kube-apiserver" }, { metadata: { name } });
    }
  }

  const hub = new WatchHub({
    bookmarkIntervalMs: options.bookmarkIntervalMs,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
    unsentLimitBytes: options.watchUnsentLimitBytes,
    onSlowClient: (path, unsentBytes) =>
      log("warn", "watch closed: its client is not reading", { path: path.slice(0, 200), unsentBytes }),
  });
  let address = "";
  const deny = new DenyList();
  if (options.deny) deny.set({ rules: options.deny });
  const handler = createHandler({
    ops,
    hub,
    deny,
    presenter: options.presenter ?? defaultPresenter,
    token,
    serverAddress: () => address,
    log,
  });
  const server: Server = createSafeServer(handler, {
    ...(tls ? { tls } : {}),
    ...(options.serverLimits ? { limits: options.serverLimits } : {}),
    onError: (error, req) =>
      log("error", "request failed", {
        method: req.method,
        path: req.url?.split("?")[0]?.slice(0, 200),
        error: error instanceof Error ? error.message : String(error),
      }),
    answer500: (res, error) => sendError(res, internalError(error)),
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  address = `${urlHost}:${port}`;
  const url = `${tls ? "https" : "http"}://${address}`;
  const kubeconfig = kubeconfigYaml(url, token, tls?.cert);
  if (options.kubeconfigPath) await writeKubeconfig(options.kubeconfigPath, kubeconfig);

  let closed = false;
  const cluster: DevCluster = {
    url,
    token,
    kubeconfig,
    cutWatches: (mode) => hub.cutAll(mode),
    deny: (config) => deny.set(config),
    flush: async () => {
      await stateFile?.flush();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      hub.cutAll("close");
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stateFile?.flush();
    },
  };
  if (options.kubeconfigPath) cluster.kubeconfigPath = options.kubeconfigPath;
  if (tls) cluster.caCert = tls.cert;
  return cluster;
}
