import { describe, expect, it } from "vitest";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { admitter } from "../shared/admission.testing.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import { resourceGroupKind as kind } from "./kind.ts";
import { type ResourceGroupClient, resourceGroupSpecSchema } from "./schema.ts";

const rep = (id: number, name: string, over: Record<string, unknown> = {}, cloud = "/api/clouds/1") => ({
  name,
  description: null,
  state: "available",
  resource_uid: `rg-${id}`,
  links: [
    { rel: "self", href: `/api/resource_groups/${id}` },
    { rel: "cloud", href: cloud },
  ],
  ...over,
});

function fake(items: ReturnType<typeof rep>[]) {
  const calls: string[] = [];
  const client = {
    resourceGroups: fakeResource(items, calls, "/api/resource_groups/9"),
    clouds: { index: async () => [] },
  } as unknown as ResourceGroupClient;
  return { client, calls };
}

const ctx = <C>(client: C, refs: Record<string, ResolvedReference> = {}) =>
  desiredContext(client, "rg", refs);

const spec = resourceGroupSpecSchema.parse({ cloudHref: "/api/clouds/1", deploymentRef: { name: "web" } });
const web = { kind: "Deployment", name: "web", href: "/api/deployments/1", atProvider: {} };

describe("ResourceGroup", () => {
  it("creates with the cloud, name and deployment; one account-wide collection", async () => {
    const { client, calls } = fake([]);
    const d = await kind.desired(spec, ctx(client, { deploymentRef: web }));
    await kind.create(client, d);
    expect(calls).toEqual([
      'create {"cloud_href":"/api/clouds/1","name":"rg","deployment_href":"/api/deployments/1"}',
    ]);
    expect(kind.index?.scope(spec, {})).toBe("");
    expect(kind.references(spec)).toEqual([{ field: "deploymentRef", kind: "Deployment", name: "web" }]);
    expect(kind.immutable).toEqual(["cloudHref", "cloud", "name"]);
  });

  it("updates description and deployment in one call, reported under the spec field used", async () => {
    const { client, calls } = fake([
      rep(1, "rg", { links: [{ rel: "self", href: "/api/resource_groups/1" }] }),
    ]);
    const d = await kind.desired({ ...spec, description: "team a" }, ctx(client, { deploymentRef: web }));
    const o = (await kind.observe(client, "/api/resource_groups/1", d))!;
    const diff = kind.diff(d, o);
    expect(diff.map((x) => x.field)).toEqual(["description", "deploymentRef"]);
    await kind.update(client, o.href, d, o, diff);
    expect(calls).toEqual([
      'update /api/resource_groups/1 {"description":"team a","deployment_href":"/api/deployments/1"}',
    ]);
  });

  it("a renamed group in the service is a create-only difference (the update takes no name)", async () => {
    const { client } = fake([rep(1, "other")]);
    const d = await kind.desired(resourceGroupSpecSchema.parse({ cloudHref: "/api/clouds/1" }), ctx(client));
    const o = (await kind.observe(client, "/api/resource_groups/1", d))!;
    expect(kind.diff(d, o).map((x) => x.field)).toEqual(["name"]);
  });

  it("a lost create is found by cloud and exact name", async () => {
    const { client, calls } = fake([rep(1, "rg"), rep(2, "rg-2"), rep(3, "rg", {}, "/api/clouds/2")]);
    const d = await kind.desired(resourceGroupSpecSchema.parse({ cloudHref: "/api/clouds/1" }), ctx(client));
    expect((await kind.lookup(client, d)).map((o) => o.href)).toEqual(["/api/resource_groups/1"]);
    expect(calls).toEqual(['index {"cloud_href":"/api/clouds/1","name":"rg"}']);
  });

  it("is not ready unless the service reports it available, and shows its state", async () => {
    const { client } = fake([rep(1, "rg", { state: "unavalable" })]);
    const o = (await kind.observe(client, "/api/resource_groups/1", undefined as never))!;
    expect(kind.notReady?.(o)).toMatch(/unavalable/);
    expect(kind.notReady?.({ ...o, state: "available" })).toBeUndefined();
    expect(kind.atProvider(o)).toMatchObject({
      state: "unavalable",
      resourceUid: "rg-1",
      cloudHref: "/api/clouds/1",
    });
  });

  it("admission: one cloud, at most one deployment form, the name immutable", () => {
    const admit = admitter(kind);
    expect(admit({}).map((c) => c.field)).toContain("spec.cloudHref");
    expect(
      admit({
        cloudHref: "/api/clouds/1",
        deploymentRef: { name: "w" },
        deploymentHref: "/api/deployments/1",
      }).map((c) => c.field),
    ).toContain("spec.deploymentRef");
    const old = { cloudHref: "/api/clouds/1", name: "a" };
    expect(admit({ ...old, name: "b" }, old).map((c) => c.field)).toContain("spec.name");
    expect(admit({ ...old, description: "d", deploymentRef: { name: "w" } }, old)).toEqual([]);
  });
});
