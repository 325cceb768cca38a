import type { TestProject } from "vitest/node";
import { missingBinaries, startControlPlane } from "../../src/control-plane/index.ts";

// Vitest's global setup: one real kube-apiserver and etcd for the whole run when
// KUBEBUILDER_ASSETS names a folder holding them (the envtest convention), handed to the tests
// through `inject("controlPlane")`. Without it the tests against it skip, and this says how to
// run them, once.

/** What a test needs of the real control plane: where it is and how to be its admin. */
export interface ControlPlaneInfo {
  url: string;
  kubeconfig: string;
  ca: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    controlPlane: ControlPlaneInfo | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const assets = process.env.KUBEBUILDER_ASSETS;
  const missing = assets ? missingBinaries(assets) : "KUBEBUILDER_ASSETS is not set";
  if (!assets || missing) {
    project.provide("controlPlane", null);
    process.stderr.write(
      `Tests against a real control plane skipped (${missing}): set KUBEBUILDER_ASSETS to a folder holding kube-apiserver and etcd (README: "Tests against a real control plane").\n`,
    );
    return async () => {};
  }
  const plane = await startControlPlane(assets);
  project.provide("controlPlane", { url: plane.url, kubeconfig: plane.kubeconfig, ca: plane.ca });
  return () => plane.stop();
}
