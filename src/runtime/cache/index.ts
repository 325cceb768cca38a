/**
 * What the operator holds of the cluster: informers over every kind, objects slimmed as they
 * enter the cache, the ConfigMap watch, and the writer whose answers go back into the cache.
 * Not here: the raw client (client/), the indexes built from the cache's events (indexes/).
 */

export * from "./cache-slim.ts";
export * from "./config-map-watch.ts";
export * from "./informers.ts";
export * from "./kube-api.ts";
