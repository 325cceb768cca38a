import type { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import {
  configMapWatch,
  type InformerHandlers,
  InformerSet,
  type InformerSetOptions,
} from "../cache/index.ts";
import type { KubeFailureReason, RawKube } from "../client/index.ts";
import type { OperatorConfig } from "../config/index.ts";
import type { AnyManagedKind } from "../sdk/index.ts";
import { KeySources, type KeySourcesOptions } from "../sdk/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";

/** What the operator watches in the cluster, and the keys specs read from it. */
export interface ClusterWatches {
  /** The Accounts and every managed kind (those of the shard's label selector). */
  informers: InformerSet;
  /** The ConfigMap and Secret keys specs read, and who read which version (key-sources.ts). */
  keySources: KeySources;
  /** ConfigMaps, metadata only, when a kind reads keys: a change re-queues its readers at once. */
  configMaps: InformerSet | undefined;
}

/** Builds the informers (not started: the operator starts them) and the key sources they feed. */
export function watchCluster(o: {
  kubeConfig: KubeConfig;
  /** Reads the list pages. */
  kube: RawKube;
  config: Pick<OperatorConfig, "namespaces" | "labelSelector">;
  kinds: AnyManagedKind[];
  handlers: InformerHandlers;
  /** Each change to the managed kinds' cache (the condition tally). */
  onChange: InformerSetOptions["onChange"];
  /** Reads a ConfigMap's or Secret's data (a `get`). */
  read: KeySourcesOptions["read"];
  /** Re-queues a resource whose source changed. */
  enqueue: (key: string) => void;
  log: Logger;
  clock: Clock;
  problems: ProblemLog;
  onError: (kind: string, reason: KubeFailureReason) => void;
}): ClusterWatches {
  const { kubeConfig, kube, log, clock, problems, onError } = o;
  const selector = o.config.labelSelector;
  const informers = new InformerSet({
    kubeConfig,
    kube,
    kinds: [
      { kind: "Account", plural: "accounts" },
      ...o.kinds.map((k) => ({ kind: k.kind, plural: k.plural, labelSelector: selector })),
    ],
    namespaces: o.config.namespaces,
    handlers: o.handlers,
    onChange: o.onChange,
    log,
    clock,
    problems,
    onError,
  });
  const keySources = new KeySources({
    read: o.read,
    enqueue: o.enqueue,
    // The watch's cache knows each ConfigMap's version: the resync reads only Secrets.
    cached: (kind, namespace, name) =>
      kind === "ConfigMap" && configMaps?.synced
        ? (configMaps.get(kind, namespace, name)?.metadata.resourceVersion ?? null)
        : undefined,
    log,
  });
  const configMaps = o.kinds.some((k) => k.keySources)
    ? configMapWatch({
        kubeConfig,
        kube,
        namespaces: o.config.namespaces,
        keySources,
        log,
        clock,
        problems,
        onError,
      })
    : undefined;
  return { informers, keySources, configMaps };
}
