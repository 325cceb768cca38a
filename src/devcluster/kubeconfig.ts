import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { stringify } from "yaml";

export const CONTEXT_NAME = "devcluster";

/** A kubeconfig for the devcluster: plain HTTP, bearer token, namespace `default`. */
export function kubeconfigYaml(url: string, token: string): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    // client-node 2.x refuses plain HTTP unless the cluster says insecure-skip-tls-verify (no TLS here).
    clusters: [{ name: CONTEXT_NAME, cluster: { server: url, "insecure-skip-tls-verify": true } }],
    users: [{ name: CONTEXT_NAME, user: { token } }],
    contexts: [
      { name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME, namespace: "default" } },
    ],
    "current-context": CONTEXT_NAME,
    preferences: {},
  });
}

/** Writes the kubeconfig readable by its owner only (it holds the token). */
export async function writeKubeconfig(path: string, yaml: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, yaml, { mode: 0o600 });
  await chmod(path, 0o600);
}
