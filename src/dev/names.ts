/** The namespace `svc-operator dev` applies the samples to. */
export const DEMO_NAMESPACE = "demo";

/** What a bare apiserver lacks, said at start and in docs/dev.md (here: `dev`'s definition loads it). */
export const BARE_APISERVER_NOTE =
  "a bare kube-apiserver (no controller-manager): a namespace deletion never finishes and nothing is garbage-collected by owner references";
