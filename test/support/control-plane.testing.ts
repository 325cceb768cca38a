import { inject } from "vitest";

/** What a test needs of a real control plane: where it is and how to be its admin. */
export interface ControlPlaneInfo {
  url: string;
  kubeconfig: string;
  ca: string;
}

/**
 * This worker's real kube-apiserver (KUBEBUILDER_ASSETS), or null when the run has none. Only
 * this worker's test file uses it while the file runs; what earlier files left there stays.
 */
export function controlPlane(): ControlPlaneInfo | null {
  const planes = inject("controlPlanes") ?? [];
  if (planes.length === 0) return null;
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  return planes[(worker - 1) % planes.length] ?? null;
}

/** The folder holding kube-apiserver and etcd (KUBEBUILDER_ASSETS), or undefined when the run has none. */
export function controlPlaneAssets(): string | undefined {
  return inject("controlPlaneAssets") || undefined;
}
