import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import { buildCrd } from "../../runtime/crd/index.ts";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { DeletionBlockedError } from "../../runtime/sdk/index.ts";
import { crdSources } from "../index.ts";
import { admitter } from "../shared/admission.testing.ts";
import { desiredContext } from "../shared/context.testing.ts";
import { ipAddressKind as kind } from "./kind.ts";
import { type IpAddressClient, ipAddressSpecSchema } from "./schema.ts";

const C = "/api/clouds/1";
const rep = (id: number, name: string, links: Record<string, string> = {}) => ({
  name,
  address: `198.18.0.${id}`,
  domain: "vpc",
  links: [
    { rel: "self", href: `${C}/ip_addresses/${id}` },
    { rel: "ip_address_bindings", href: `${C}/ip_addresses/${id}/ip_address_bindings` },
    ...Object.entries(links).map(([rel, href]) => ({ rel, href })),
  ],
});

/** A fake service: IP addresses of cloud 1 and the clouds index, recording every call. */
function fake(items = [rep(1, "web-ip", { deployment: "/api/deployments/1", network: "/api/networks/1" })]) {
  const calls: string[] = [];
  const client = {
    ipAddresses: {
      show: async (href: string) => {
        calls.push(`show ${href}`);
        const found = items.find((i) => i.links[0]!.href === href);
        if (!found)
          throw new ApiError({
            kind: "notFound",
            code: ApiErrorCodes.notFound,
            method: "GET",
            href,
            status: 404,
          });
        return found;
      },
      index: async (cloud: string, options?: { filter?: Record<string, string> }) => {
        calls.push(`index ${cloud} ${JSON.stringify(options?.filter ?? {})}`);
        return items.filter((i) => i.name.includes(options?.filter?.name ?? ""));
      },
      create: async (cloud: string, params: object) => {
        calls.push(`create ${cloud} ${JSON.stringify(params)}`);
        return `${C}/ip_addresses/9`;
      },
      update: async (href: string, params: object) =>
        void calls.push(`update ${href} ${JSON.stringify(params)}`),
      destroy: async (href: string) => void calls.push(`destroy ${href}`),
    },
    clouds: {
      index: async () => {
        calls.push("clouds");
        return [{ name: "EC2 us-east-1", links: [{ rel: "self", href: C }] }];
      },
    },
  } as unknown as IpAddressClient;
  return { client, calls };
}

const ctx = <C>(client: C, refs: Record<string, ResolvedReference> = {}) =>
  desiredContext(client, "web-ip", refs);

const ref = (kind: string, name: string, href: string) => ({ kind, name, href, atProvider: {} });

describe("IpAddress desired state, references and links", () => {
  it("takes the cloud by name, the name from metadata, the deployment from its reference", async () => {
    const { client, calls } = fake();
    const spec = ipAddressSpecSchema.parse({
      cloud: { name: "EC2 us-east-1" },
      deploymentRef: { name: "web" },
    });
    const d = await kind.desired(
      spec,
      ctx(client, { deploymentRef: ref("Deployment", "web", "/api/deployments/1") }),
    );
    expect(d).toEqual({
      cloudHref: C,
      name: "web-ip",
      deploymentHref: "/api/deployments/1",
      fields: { cloudHref: "cloud", deploymentHref: "deploymentRef" },
    });
    expect(calls).toEqual(["clouds"]);
    expect(kind.references(spec)).toEqual([{ field: "deploymentRef", kind: "Deployment", name: "web" }]);
  });

  it("checks the hrefs the spec gives before a create, and lists the create-only fields as immutable", () => {
    const spec = ipAddressSpecSchema.parse({
      cloudHref: C,
      networkHref: "/api/networks/1",
      deploymentHref: "/api/deployments/1",
    });
    expect(kind.links?.(spec)).toEqual([
      { field: "cloudHref", href: C },
      { field: "networkHref", href: "/api/networks/1" },
      { field: "deploymentHref", href: "/api/deployments/1" },
    ]);
    expect(kind.immutable).toEqual(["cloudHref", "cloud", "domain", "networkHref", "networkRef"]);
    expect(kind.replace).toBeUndefined();
    expect(kind.writeOnly).toBeUndefined();
  });

  it("prints the allocated address (kubectl shows the column as ADDRESS)", () => {
    const crd = buildCrd(crdSources([kind]).find((s) => s.kind === "IpAddress")!);
    expect(crd.spec.versions[0].additionalPrinterColumns).toContainEqual(
      expect.objectContaining({ name: "Address", jsonPath: ".status.atProvider.address" }),
    );
  });
});

describe("IpAddress against the service", () => {
  const spec = ipAddressSpecSchema.parse({ cloudHref: C, domain: "vpc", networkHref: "/api/networks/1" });

  it("creates in the cloud's collection with the create fields, and shows the allocated address", async () => {
    const { client, calls } = fake();
    const d = await kind.desired({ ...spec, deploymentHref: "/api/deployments/1" }, ctx(client));
    expect(await kind.create(client, d)).toBe(`${C}/ip_addresses/9`);
    expect(calls).toEqual([
      `create ${C} {"name":"web-ip","domain":"vpc","network_href":"/api/networks/1","deployment_href":"/api/deployments/1"}`,
    ]);
    const o = (await kind.observe(client, `${C}/ip_addresses/1`, d))!;
    expect(kind.atProvider(o)).toEqual({
      cloudHref: C,
      name: "web-ip",
      domain: "vpc",
      networkHref: "/api/networks/1",
      deploymentHref: "/api/deployments/1",
      address: "198.18.0.1",
    });
    expect(kind.diff(d, o)).toEqual([]);
  });

  it("an update sends the changed deployment with the name the API requires, nothing else", async () => {
    const { client, calls } = fake();
    const d = await kind.desired({ ...spec, deploymentHref: "/api/deployments/2" }, ctx(client));
    const o = (await kind.observe(client, `${C}/ip_addresses/1`, d))!;
    const diff = kind.diff(d, o);
    expect(diff.map((x) => x.field)).toEqual(["deploymentHref"]);
    await kind.update(client, o.href, d, o, diff);
    expect(calls.at(-1)).toBe(
      `update ${C}/ip_addresses/1 {"deployment_href":"/api/deployments/2","name":"web-ip"}`,
    );
  });

  it("another network or domain in the service is a create-only difference; an unshown domain is not", async () => {
    const { client } = fake([rep(1, "web-ip", { network: "/api/networks/2" })]);
    const d = await kind.desired(spec, ctx(client));
    const o = (await kind.observe(client, `${C}/ip_addresses/1`, d))!;
    expect(kind.diff(d, o).map((x) => x.field)).toEqual(["networkHref"]);
    expect(
      kind.diff({ ...d, domain: "ec2_classic" }, { ...o, domain: null, networkHref: "/api/networks/1" }),
    ).toEqual([]);
  });

  it("a lost create is found by exact name in the cloud's index, skipping objects with other create-only values", async () => {
    const { client, calls } = fake([
      rep(1, "web-ip", { network: "/api/networks/1" }),
      rep(2, "web-ip-2", { network: "/api/networks/1" }),
      rep(3, "web-ip", { network: "/api/networks/3" }),
    ]);
    const d = await kind.desired(spec, ctx(client));
    expect((await kind.lookup(client, d)).map((o) => o.href)).toEqual([`${C}/ip_addresses/1`]);
    expect(calls).toEqual([`index ${C} {"name":"web-ip"}`]);
  });

  it("drift is read per cloud (the spec's, else the one recorded), one index call each", async () => {
    const { client, calls } = fake();
    expect(kind.index?.scope(spec, {})).toBe(C);
    const byName = ipAddressSpecSchema.parse({ cloud: { name: "x" } });
    expect(kind.index?.scope(byName, { atProvider: { cloudHref: "/api/clouds/2" } })).toBe("/api/clouds/2");
    expect(kind.index?.scope(byName, {})).toBeUndefined();
    const listed = await kind.index!.list(client, C);
    expect(listed.map((o) => kind.atProvider(o).cloudHref)).toEqual([C]);
    expect(calls).toEqual([`index ${C} {}`]);
  });

  it("a delete the service refuses (still bound) waits instead of stalling", async () => {
    const { client } = fake();
    const refused = new ApiError({
      kind: "conflict",
      code: ApiErrorCodes.conflict,
      method: "DELETE",
      href: `${C}/ip_addresses/1`,
      status: 422,
      serviceMessage: "IP address 1 is still bound",
    });
    client.ipAddresses.destroy = () => Promise.reject(refused);
    const error = await kind.delete(client, `${C}/ip_addresses/1`, {} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionBlockedError);
    expect((error as Error).message).toMatch(/refuses to delete .*still bound/);
  });
});

describe("IpAddress admission (CEL)", () => {
  const admit = admitter(kind);
  const base = { cloudHref: C };
  it.each([
    { reason: "no cloud", spec: {}, field: "spec.cloudHref" },
    {
      reason: "both deployment forms",
      spec: { ...base, deploymentRef: { name: "w" }, deploymentHref: "/api/deployments/1" },
      field: "spec.deploymentRef",
    },
    {
      reason: "both network forms",
      spec: { ...base, networkRef: { name: "n" }, networkHref: "/api/networks/1" },
      field: "spec.networkRef",
    },
    { reason: "a domain outside the enum", spec: { ...base, domain: "classic" }, field: "spec.domain" },
  ])("refuses $reason, naming $field", ({ spec, field }) => {
    expect(admit(spec).map((c) => c.field)).toContain(field);
  });

  it("refuses a change of a create-only field and accepts a deployment change", () => {
    const old = { ...base, domain: "vpc", networkRef: { name: "n" } };
    expect(admit({ ...old, domain: "ec2_classic" }, old).map((c) => c.field)).toContain("spec.domain");
    expect(admit({ ...old, networkRef: { name: "m" } }, old).map((c) => c.field)).toContain(
      "spec.networkRef",
    );
    expect(admit({ ...old, deploymentRef: { name: "w" }, name: "renamed" }, old)).toEqual([]);
  });
});
