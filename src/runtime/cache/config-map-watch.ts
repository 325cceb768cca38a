import type { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import type { KubeFailureReason, RawKube } from "../client/index.ts";
import type { KeySources, ManagedObject } from "../sdk/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";
import { InformerSet } from "./informers.ts";

/**
 * The watch that re-uploads a changed ConfigMap at once: the ConfigMaps of the watched namespaces
 * (all, or those of `--namespaces`), metadata only — their data is read with a `get` by the
 * reconcile that needs it, never held — and each change handed to KeySources, which re-queues
 * only the resources that read another version of that ConfigMap. This is what the ClusterRole's
 * `list` and `watch` on configmaps are for; Secrets are never listed or watched (read with `get`,
 * re-checked at every resync instead).
 */
export function configMapWatch(o: {
  kubeConfig: KubeConfig;
  kube: Pick<RawKube, "call" | "stream">;
  namespaces: string[];
  keySources: KeySources;
  log: Logger;
  clock?: Clock;
  /** Shared with the operator's other informers: one cause (the apiserver down) is one line. */
  problems?: ProblemLog;
  onError?: (kind: string, reason: KubeFailureReason) => void;
}): InformerSet {
  const changed = (obj: ManagedObject, gone = false) =>
    o.keySources.changed(
      "ConfigMap",
      obj.metadata.namespace,
      obj.metadata.name,
      gone ? undefined : obj.metadata.resourceVersion,
    );
  return new InformerSet({
    kubeConfig: o.kubeConfig,
    kube: o.kube,
    kinds: [{ kind: "ConfigMap", plural: "configmaps", core: { prefix: "/api/v1" } }],
    namespaces: o.namespaces,
    metadataOnly: true,
    handlers: {
      added: (_kind, obj) => changed(obj),
      updated: (_kind, obj) => changed(obj),
      deleted: (_kind, obj) => changed(obj, true),
    },
    log: o.log,
    clock: o.clock,
    problems: o.problems,
    onError: o.onError,
  });
}
