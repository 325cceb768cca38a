/**
 * Talking to the Kubernetes API: raw calls (RawKube), watches, the errors it answers, the
 * kubeconfig's dispatchers, Events, and the writer and store interfaces the reconcile uses.
 * Not here: what the operator holds of the cluster (cache/).
 */

export * from "./events.ts";
export * from "./kube.ts";
export * from "./kube-errors.ts";
export * from "./kube-raw.ts";
export * from "./kube-watch.ts";
export * from "./kubeconfig.ts";
