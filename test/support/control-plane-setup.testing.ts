import type { TestProject } from "vitest/node";
import { missingBinaries, startControlPlane } from "../../src/control-plane/index.ts";
import type { ControlPlaneInfo } from "./control-plane.testing.ts";

// Vitest's global setup: when KUBEBUILDER_ASSETS names a folder holding kube-apiserver and etcd
// (the envtest convention), one real control plane per worker for the whole run, handed to the
// tests through `inject("controlPlanes")` (control-plane.testing.ts picks the worker's own).
// Per worker, not one for all: each test file runs operators that watch every namespace, so two
// files at once on one apiserver would reconcile each other's objects. Without the folder the
// tests against it skip, and this says how to run them, once.

declare module "vitest" {
  export interface ProvidedContext {
    controlPlanes: ControlPlaneInfo[];
    /** KUBEBUILDER_ASSETS as the run was given it (the workers' own is emptied: vitest.config.ts). */
    controlPlaneAssets: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const assets = process.env.KUBEBUILDER_ASSETS;
  const missing = assets ? missingBinaries(assets) : "KUBEBUILDER_ASSETS is not set";
  if (!assets || missing) {
    project.provide("controlPlanes", []);
    project.provide("controlPlaneAssets", "");
    process.stderr.write(
      `Tests against a real control plane skipped (${missing}): set KUBEBUILDER_ASSETS to a folder holding kube-apiserver and etcd (README: "Tests against a real control plane").\n`,
    );
    return async () => {};
  }
  project.provide("controlPlaneAssets", assets);
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const planes = await Promise.all(Array.from({ length: workers }, () => startControlPlane(assets)));
  project.provide(
    "controlPlanes",
    planes.map((p) => ({ url: p.url, kubeconfig: p.kubeconfig, ca: p.ca })),
  );
  return async () => {
    await Promise.all(planes.map((p) => p.stop()));
  };
}
