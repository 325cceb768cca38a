/**
 * What plan and export both read: an account's service objects (Inventory), the cluster's
 * custom resources (ClusterReader), access to an account from a kubeconfig or the environment,
 * a read-only service client, and a manifest's desired state and admission. Not here: what plan
 * or export make of them.
 */

export * from "./cluster-reader.ts";
export * from "./desired.ts";
export * from "./inventory.ts";
export * from "./read-only-client.ts";
export * from "./service-access.ts";
