// The module, not the index (which loads every generated class: scripts/build.ts).
import { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import { UsageError } from "../lib/cli/index.ts";
import { KubeHttpError, RawKube } from "../runtime/client/index.ts";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { GROUP, VERSION } from "../runtime/sdk/index.ts";

/** Objects per page of a list across namespaces (kubectl's default --chunk-size). */
const LIST_PAGE = 500;

/**
 * What `svc-operator export`, `plan` and `trace` read from a cluster: Accounts, their Secrets and
 * the custom resources of a namespace. Only GETs: these commands write nothing anywhere.
 */
export class ClusterReader {
  private readonly kube: RawKube;
  /** Where the kubeconfig came from, for messages. */
  readonly source: string;
  /** The apiserver's URL, for messages. */
  readonly server: string;
  /** The namespace of the kubeconfig's current context, if it names one (kubectl's default). */
  readonly contextNamespace: string | undefined;

  constructor(kubeconfig: string | undefined) {
    const kc = new KubeConfig();
    this.source = kubeconfig
      ? `--kubeconfig ${kubeconfig}`
      : "the default kubeconfig ($KUBECONFIG, ~/.kube/config)";
    try {
      if (kubeconfig) kc.loadFromFile(kubeconfig);
      else kc.loadFromDefault();
    } catch (error) {
      throw new UsageError(`cannot load ${this.source}: ${(error as Error).message}`);
    }
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new UsageError(`${this.source}: no current cluster`);
    this.server = cluster.server;
    this.contextNamespace = kc.getContextObject(kc.getCurrentContext())?.namespace;
    this.kube = new RawKube(kc);
  }

  /** An object, or undefined when the cluster has none of that name. */
  async get<T>(path: string): Promise<T | undefined> {
    try {
      return await this.kube.call<T>("GET", path);
    } catch (error) {
      if (error instanceof KubeHttpError && error.code === 404) return undefined;
      throw new ClusterError(this.source, error);
    }
  }

  /** A custom resource of this operator's group. */
  custom(plural: string, namespace: string, name: string): Promise<ManagedObject | undefined> {
    return this.get(`/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${plural}/${name}`);
  }

  /**
   * Every custom resource of one kind in every namespace: one list across namespaces (paged, so no
   * answer is larger than a page), which needs `list` at the cluster scope (a ClusterRole).
   */
  async listEverywhere(plural: string, pageSize = LIST_PAGE): Promise<ManagedObject[]> {
    const items: ManagedObject[] = [];
    let next: string | undefined;
    do {
      const page = new URLSearchParams({ limit: String(pageSize), ...(next ? { continue: next } : {}) });
      const list = await this.get<{ items: ManagedObject[]; metadata?: { continue?: string } }>(
        `/apis/${GROUP}/${VERSION}/${plural}?${page}`,
      );
      items.push(...(list?.items ?? []));
      next = list?.metadata?.continue || undefined;
    } while (next);
    return items;
  }

  /** Every custom resource of one kind in a namespace (one call, whatever their number). */
  async list(plural: string, namespace: string): Promise<ManagedObject[]> {
    const list = await this.get<{ items: ManagedObject[] }>(
      `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${plural}`,
    );
    return list?.items ?? [];
  }

  /** A Secret's decoded data; undefined when it does not exist. */
  async secret(namespace: string, name: string): Promise<Record<string, string> | undefined> {
    const secret = await this.get<{ data?: Record<string, string> }>(
      `/api/v1/namespaces/${namespace}/secrets/${name}`,
    );
    if (!secret) return undefined;
    return Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
    );
  }

  close(): Promise<void> {
    return this.kube.close();
  }
}

/** The cluster could not be read: says which kubeconfig and why. */
export class ClusterError extends Error {
  override name = "ClusterError";
  /** The apiserver refused the request (403): the kubeconfig's user may not make it. */
  readonly forbidden: boolean;
  /** The apiserver's own words, when it answered (`User "x" cannot list resource ...`). */
  readonly reason: string | undefined;
  constructor(source: string, cause: unknown) {
    super(`cannot read the cluster of ${source}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.forbidden = cause instanceof KubeHttpError && cause.code === 403;
    this.reason = cause instanceof KubeHttpError ? cause.statusMessage : undefined;
  }
}
