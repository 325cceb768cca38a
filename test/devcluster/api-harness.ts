import { afterAll, beforeAll } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

// The cluster the api-*.test.ts files talk to: a widget CRD (namespaced), a gadget CRD
// (cluster-scoped) and the namespace "api", started and stopped once per file.

export let h: Harness;
export const base = { group: GROUP, version: "v1", namespace: "api", plural: "widgets" };

export function useApiCluster(): void {
  beforeAll(async () => {
    h = await startHarness();
    await createCrd(h, widgetCrd());
    await createCrd(h, widgetCrd({ scope: "Cluster", plural: "gadgets", kind: "Gadget" }));
    await h.core.createNamespace({ body: { metadata: { name: "api" } } });
  });
  afterAll(async () => {
    await h.cluster.close();
  });
}

// biome-ignore lint/suspicious/noExplicitAny: responses are read as loose JSON
export async function json(res: Response): Promise<any> {
  return res.json();
}

export function widget(name: string, extra: Record<string, unknown> = {}) {
  return { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name, ...extra }, spec: { size: 1 } };
}

export const send = (method: string, path: string, body: unknown, contentType = "application/json") =>
  h.http(path, {
    method,
    headers: { "Content-Type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
