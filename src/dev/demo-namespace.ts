import { stringify } from "yaml";
import { API_VERSION } from "../runtime/sdk/index.ts";
import { SEED_CREDENTIALS } from "../simulator/seed-data.ts";
import { type ApplyOptions, applyManifest, type Collection, type Manifest } from "./apply.ts";
import type { KubeHttp } from "./kube-http.ts";
import { DEMO_NAMESPACE } from "./names.ts";
import { writeOwnerOnly } from "./state.ts";

export const CREDENTIALS_SECRET = "svc-credentials";

/** The file in the state directory that brings namespace demo back (see writeDemoFile). */
export const DEMO_FILE = "demo.yaml";

interface Part {
  manifest: Manifest;
  collection: Collection;
  options?: ApplyOptions;
}

/** Namespace demo, the Secret with the simulator's refresh token, and the Account using it. */
function demoParts(simulatorUrl: string, account: Collection): Part[] {
  return [
    {
      manifest: { apiVersion: "v1", kind: "Namespace", metadata: { name: DEMO_NAMESPACE } },
      collection: { plural: "namespaces", namespaced: false },
    },
    {
      manifest: {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: CREDENTIALS_SECRET, namespace: DEMO_NAMESPACE },
        stringData: { refreshToken: SEED_CREDENTIALS.refreshToken },
      },
      collection: { plural: "secrets", namespaced: true },
      options: { lastApplied: false },
    },
    {
      manifest: {
        apiVersion: API_VERSION,
        kind: "Account",
        metadata: { name: "default", namespace: DEMO_NAMESPACE },
        spec: {
          endpoint: simulatorUrl,
          accountId: Number(SEED_CREDENTIALS.accountId),
          oauth: { refreshTokenSecretRef: { name: CREDENTIALS_SECRET, key: "refreshToken" } },
        },
      },
      collection: account,
    },
  ];
}

/** Applies namespace demo, its Secret and its Account pointing at this run's simulator, in that order. */
export async function applyDemoNamespace(
  kube: KubeHttp,
  simulatorUrl: string,
  account: Collection,
): Promise<void> {
  for (const part of demoParts(simulatorUrl, account))
    await applyManifest(kube, part.manifest, part.collection, part.options);
}

/**
 * Writes the same three objects as one YAML file (mode 0600: it holds the simulator's refresh
 * token), so that after `kubectl delete namespace demo` one `kubectl apply` of it and of the
 * samples brings the namespace back. Written at every start: the Account names this run's
 * simulator, whose port may differ from the last run's.
 */
export async function writeDemoFile(file: string, simulatorUrl: string, account: Collection): Promise<void> {
  const header = [
    "# Written by svc-operator dev at every start: namespace demo, its Secret and its Account",
    "# pointing at this run's simulator. After `kubectl delete namespace demo`, bring it back with",
    `#   kubectl apply -n ${DEMO_NAMESPACE} -f <this file> -f deploy/samples/`,
  ];
  const documents = demoParts(simulatorUrl, account).map((p) => stringify(p.manifest).trimEnd());
  await writeOwnerOnly(file, `${[...header, documents.join("\n---\n")].join("\n")}\n`);
}
