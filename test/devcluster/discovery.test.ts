/**
 * Discovery lists a group-version's resources sorted by plural name, as kube-apiserver does, in
 * both shapes kubectl and client-go read: the legacy APIResourceList and aggregated discovery.
 * kubectl expands a category (`kubectl get svccloud`) in this order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

const AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
// What kubectl 1.32 sends to /api and /apis.
const KUBECTL_ACCEPT = `${AGGREGATED},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // Registered out of order on purpose.
  for (const [plural, kind] of [
    ["widgets", "Widget"],
    ["gadgets", "Gadget"],
    ["zebras", "Zebra"],
    ["anvils", "Anvil"],
  ] as const) {
    await createCrd(h, widgetCrd({ plural, kind }));
  }
});
afterAll(async () => {
  await h.cluster.close();
});

// biome-ignore lint/suspicious/noExplicitAny: discovery documents are read as loose JSON
async function get(path: string, accept = "application/json"): Promise<any> {
  const res = await h.http(path, { headers: { Accept: accept } });
  expect(res.status).toBe(200);
  return res.json();
}

describe("discovery order", () => {
  it("sorts a CRD group's APIResourceList by name, each status subresource after its resource", async () => {
    const list = await get(`/apis/${GROUP}/v1`);
    expect(list.resources.map((r: { name: string }) => r.name)).toEqual([
      "anvils",
      "anvils/status",
      "gadgets",
      "gadgets/status",
      "widgets",
      "widgets/status",
      "zebras",
      "zebras/status",
    ]);
  });

  it("sorts the core group's APIResourceList by path", async () => {
    const list = await get("/api/v1");
    expect(list.resources.map((r: { name: string }) => r.name)).toEqual([
      "configmaps",
      "events",
      "namespaces",
      "namespaces/finalize",
      "namespaces/status",
      "secrets",
    ]);
  });

  it("sorts aggregated discovery by resource, and subresources by name", async () => {
    const apis = await get("/apis", KUBECTL_ACCEPT);
    const group = apis.items.find((g: { metadata: { name: string } }) => g.metadata.name === GROUP);
    expect(group.versions[0].resources.map((r: { resource: string }) => r.resource)).toEqual([
      "anvils",
      "gadgets",
      "widgets",
      "zebras",
    ]);
    const core = await get("/api", KUBECTL_ACCEPT);
    const resources = core.items[0].versions[0].resources;
    expect(resources.map((r: { resource: string }) => r.resource)).toEqual([
      "configmaps",
      "events",
      "namespaces",
      "secrets",
    ]);
    const namespaces = resources.find((r: { resource: string }) => r.resource === "namespaces");
    expect(namespaces.subresources.map((s: { subresource: string }) => s.subresource)).toEqual([
      "finalize",
      "status",
    ]);
  });
});
