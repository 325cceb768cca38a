import * as k8s from "@kubernetes/client-node";
import { createDevCluster, type DevCluster, type DevClusterOptions } from "../../src/devcluster/index.ts";

export interface Harness {
  cluster: DevCluster;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  ext: k8s.ApiextensionsV1Api;
  custom: k8s.CustomObjectsApi;
  objects: k8s.KubernetesObjectApi;
  /** Raw HTTP with the token: for status codes and bodies the typed clients hide. */
  http(path: string, init?: RequestInit & { noAuth?: boolean }): Promise<Response>;
}

export async function startHarness(options: DevClusterOptions = {}): Promise<Harness> {
  const cluster = await createDevCluster(options);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  return {
    cluster,
    kc,
    core: kc.makeApiClient(k8s.CoreV1Api),
    ext: kc.makeApiClient(k8s.ApiextensionsV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    objects: k8s.KubernetesObjectApi.makeApiClient(kc),
    http: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!init.noAuth) headers.set("Authorization", `Bearer ${cluster.token}`);
      return fetch(`${cluster.url}${path}`, { ...init, headers });
    },
  };
}

/**
 * Creates a CRD over raw HTTP: client-node's typed serializer drops the `x-kubernetes-*`
 * extensions and `enum` keys of a plain object.
 */
export async function createCrd(h: Harness, crd: object): Promise<void> {
  const res = await h.http("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(crd),
  });
  if (res.status !== 201) throw new Error(`CRD create failed: ${res.status} ${await res.text()}`);
}

export const GROUP = "example.svc.io";

/** A CRD for tests: namespaced `Widget` with status subresource, or cluster-scoped `Gadget`. */
export function widgetCrd(
  options: { scope?: "Namespaced" | "Cluster"; plural?: string; kind?: string } = {},
) {
  const plural = options.plural ?? "widgets";
  const kind = options.kind ?? "Widget";
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: options.scope ?? "Namespaced",
      names: {
        plural,
        singular: kind.toLowerCase(),
        kind,
        shortNames: [`${plural.slice(0, 2)}x`],
        categories: ["testing"],
      },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }],
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    size: { type: "integer" },
                    color: { type: "string" },
                    tags: { type: "array", items: { type: "string" } },
                  },
                },
                status: {
                  type: "object",
                  properties: {
                    phase: { type: "string" },
                    conditions: {
                      type: "array",
                      "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["type"],
                      items: {
                        type: "object",
                        properties: { type: { type: "string" }, status: { type: "string" } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** Polls until `check` returns a value (not undefined/false) or the timeout passes. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
