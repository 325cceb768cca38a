import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { stringify } from "yaml";

export const CONTEXT_NAME = "devcluster";

/**
 * A kubeconfig for the devcluster: bearer token, namespace `default`. Over TLS it carries the
 * self-signed certificate as the CA. Over plain HTTP it says insecure-skip-tls-verify, without
 * which client-node 2.x refuses http:// servers (kubectl, for its part, never sends the token
 * over plain HTTP).
 */
export function kubeconfigYaml(url: string, token: string, caCert?: string): string {
  const cluster: Record<string, unknown> = { server: url };
  if (caCert) cluster["certificate-authority-data"] = Buffer.from(caCert).toString("base64");
  else cluster["insecure-skip-tls-verify"] = true;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: CONTEXT_NAME, cluster }],
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
