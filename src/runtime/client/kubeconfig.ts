import type { KubeConfig } from "@kubernetes/client-node";

type CreateDispatcher = (cluster: unknown, agentOptions: Record<string, unknown>) => unknown;

/**
 * client-node 2.0.1 builds a new undici Agent for every request whose cluster has TLS
 * options (a CA, client certificates, or skipTLSVerify, which plain-HTTP clusters need):
 * every API call then opens a new connection. This makes the KubeConfig reuse one
 * dispatcher per distinct set of options, so calls share keep-alive connections.
 */
export function shareDispatchers(kc: KubeConfig): KubeConfig {
  const target = kc as unknown as { createDispatcher?: CreateDispatcher; __sharedDispatchers?: boolean };
  const original = target.createDispatcher;
  if (typeof original !== "function" || target.__sharedDispatchers) return kc;
  const cache = new Map<string, unknown>();
  target.createDispatcher = (cluster, agentOptions) => {
    const key = JSON.stringify([cluster, agentOptions], (_k, v) =>
      Buffer.isBuffer(v) || (v && typeof v === "object" && v.type === "Buffer")
        ? Buffer.from(v).toString("base64")
        : v,
    );
    if (!cache.has(key)) cache.set(key, original.call(kc, cluster, agentOptions));
    return cache.get(key);
  };
  target.__sharedDispatchers = true;
  return kc;
}
