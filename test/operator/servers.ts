import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type * as k8s from "@kubernetes/client-node";
import { parse } from "yaml";
import type { DevCluster } from "../../src/devcluster/index.ts";
import { crdSources } from "../../src/kinds/index.ts";
import { RawKube } from "../../src/runtime/client/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { controlPlane } from "../support/control-plane.testing.ts";

// The Kubernetes API under a test stack (harness.ts): the devcluster, or the worker's real
// kube-apiserver, and what a stack does to the real one that the devcluster needs not.

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The Kubernetes API a stack runs on: the devcluster (one per stack), or the run's real
 * kube-apiserver (KUBEBUILDER_ASSETS, shared by every stack of the run: namespaces keep them apart).
 */
export type Server = "devcluster" | "kube-apiserver";

/**
 * The server this test file's stacks run on: the real apiserver in the run's `kube-apiserver`
 * project (vitest.config.ts lists the suites that run on both), else the devcluster. Read at each
 * call: the devcluster project's files share their worker's modules (vitest.config.ts), so a value
 * kept from an import could be another file's.
 */
export function testServer(): Server {
  return process.env.SVC_TEST_SERVER === "kube-apiserver" ? "kube-apiserver" : "devcluster";
}

/** For `it.skipIf`: a test of something only the devcluster has (its test hooks), or that would change what other files of the run share on the real apiserver (a CRD). */
export function notOnDevcluster(): boolean {
  return testServer() !== "devcluster";
}

/** The run's real kube-apiserver, as much of a DevCluster as a test of either may use. */
export function realCluster(): DevCluster {
  const plane = controlPlane();
  if (!plane) throw new Error("no real kube-apiserver in this run: set KUBEBUILDER_ASSETS (README)");
  // The apiserver outlives the stack: the run's global setup stops it.
  return { kubeconfig: plane.kubeconfig, url: plane.url, close: async () => {} } as unknown as DevCluster;
}

/** Creates the CRDs (those already there, from another stack of the run, are kept) and waits until established. */
export async function installCrds(kc: k8s.KubeConfig): Promise<void> {
  const raw = new RawKube(kc);
  const path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const names: string[] = [];
  for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
    const crd = parse(await readFile(join(ROOT, "crds", file), "utf8")) as { metadata: { name: string } };
    names.push(crd.metadata.name);
    // Raw HTTP: client-node's typed serializer drops the x-kubernetes-* keys of plain objects.
    await raw.call("POST", path, crd).catch((error: { code?: number }) => {
      if (error.code !== 409) throw error;
    });
  }
  for (const name of names) {
    const established = async () => {
      const crd = (await raw.call("GET", `${path}/${name}`)) as {
        status?: { conditions?: { type: string; status: string }[] };
      };
      return crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") === true;
    };
    for (let deadline = Date.now() + 15_000; !(await established()); ) {
      if (Date.now() > deadline) throw new Error(`CRD ${name} not established within 15 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Removes every custom resource an earlier test file of this worker left on its real apiserver,
 * finalizers first (their operator is gone), so this file's operators see only their own.
 */
export async function clearCustomResources(kc: k8s.KubeConfig): Promise<void> {
  const raw = new RawKube(kc);
  for (const { plural } of crdSources()) {
    const list = (await raw.call("GET", `/apis/${GROUP}/${VERSION}/${plural}`)) as { items: ManagedObject[] };
    for (const o of list.items) {
      const path = `/apis/${GROUP}/${VERSION}/namespaces/${o.metadata.namespace}/${plural}/${o.metadata.name}`;
      const gone = (error: { code?: number }) => {
        if (error.code !== 404) throw error;
      };
      if (o.metadata.finalizers?.length)
        await raw
          .call("PATCH", path, { metadata: { finalizers: null } }, "application/merge-patch+json")
          .catch(gone);
      await raw.call("DELETE", path).catch(gone);
    }
  }
}
