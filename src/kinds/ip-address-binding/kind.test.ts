import { describe, expect, it } from "vitest";
import { buildCrd } from "../../runtime/crd/index.ts";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { crdSources } from "../index.ts";
import { admitter } from "../shared/admission.testing.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import { ipAddressBindingKind as kind } from "./kind.ts";
import { type IpAddressBindingClient, ipAddressBindingSpecSchema } from "./schema.ts";

const C = "/api/clouds/1";
const IP = `${C}/ip_addresses/4`;
const I1 = `${C}/instances/1`;

const rep = (id: number, links: Record<string, string>, attrs: Record<string, unknown> = {}) => ({
  created_at: null,
  recurring: false,
  public_port: null,
  private_port: null,
  protocol: null,
  ...attrs,
  links: [
    { rel: "self", href: `${C}/ip_address_bindings/${id}` },
    ...Object.entries(links).map(([rel, href]) => ({ rel, href })),
  ],
});

/** A fake service: the bindings of cloud 1 and the servers' links, recording every call. */
function fake(items: ReturnType<typeof rep>[] = []) {
  const calls: string[] = [];
  const client = {
    ipAddressBindings: fakeResource(items, calls, `${C}/ip_address_bindings/9`),
    clouds: { index: async () => [] },
    linksOf: async (href: string) => {
      calls.push(`links ${href}`);
      const current = href === "/api/servers/1" ? [{ rel: "current_instance", href: I1 }] : [];
      return { links: [{ rel: "self", href }, ...current] };
    },
  } as unknown as IpAddressBindingClient;
  return { client, calls };
}

const ctx = <C>(client: C, refs: Record<string, ResolvedReference> = {}) => desiredContext(client, "b", refs);

const ipRef = { ipAddressRef: { kind: "IpAddress", name: "web-ip", href: IP, atProvider: {} } };

describe("IpAddressBinding", () => {
  it("creates in the cloud's collection: the address from its reference, the private port defaulting to the public one", async () => {
    const { client, calls } = fake();
    const spec = ipAddressBindingSpecSchema.parse({
      cloudHref: C,
      ipAddressRef: { name: "web-ip" },
      instanceHref: I1,
      publicPort: 8080,
      protocol: "TCP",
    });
    const d = await kind.desired(spec, ctx(client, ipRef));
    expect(await kind.create(client, d)).toBe(`${C}/ip_address_bindings/9`);
    expect(calls).toEqual([
      `create ${C} {"public_ip_address_href":"${IP}","instance_href":"${I1}","public_port":"8080","private_port":"8080","protocol":"TCP"}`,
    ]);
    expect(kind.references(spec)).toEqual([{ field: "ipAddressRef", kind: "IpAddress", name: "web-ip" }]);
    expect(kind.links?.(spec)).toEqual([
      { field: "cloudHref", href: C },
      { field: "instanceHref", href: I1 },
    ]);
  });

  it("shows what the service bound, and whether it recurs; a change of any field replaces it", async () => {
    const { client } = fake([
      rep(1, { instance: I1, ip_address: IP }, { public_port: 8080, private_port: "80", protocol: "TCP" }),
    ]);
    const given = {
      cloudHref: C,
      publicIpAddressHref: IP,
      instanceHref: I1,
      publicPort: 8080,
      privatePort: 80,
    };
    const spec = ipAddressBindingSpecSchema.parse({ ...given, protocol: "TCP" });
    const d = await kind.desired(spec, ctx(client));
    const o = (await kind.observe(client, `${C}/ip_address_bindings/1`, d))!;
    expect(kind.atProvider(o)).toEqual({ ...given, protocol: "TCP", recurring: false });
    expect(kind.diff(d, o)).toEqual([]);
    const other = await kind.desired({ ...spec, privatePort: undefined, protocol: "UDP" }, ctx(client));
    expect(kind.diff(other, o).map((x) => x.field)).toEqual(["privatePort", "protocol"]);
    expect(kind.replace).toBe("deleteBeforeCreate");
    expect(kind.immutable).toEqual(expect.arrayContaining(["ipAddressRef", "serverHref", "privatePort"]));
    // The server named is never shown (the instance bound is): compared with what was applied.
    expect(
      kind.writeOnly?.(await kind.desired({ ...spec, serverHref: "/api/servers/1" }, ctx(client))),
    ).toEqual({ serverHref: "/api/servers/1" });
  });

  it("a lost create is found by address and instance, and a port forward without them by its ports", async () => {
    const { client, calls } = fake([
      rep(1, { instance: I1, ip_address: IP }),
      rep(2, { instance: `${C}/instances/3`, ip_address: IP }),
      rep(3, { instance: I1 }, { public_port: 22, private_port: 22, protocol: "TCP" }),
    ]);
    const plain = ipAddressBindingSpecSchema.parse({
      cloudHref: C,
      publicIpAddressHref: IP,
      instanceHref: I1,
    });
    expect((await kind.lookup(client, await kind.desired(plain, ctx(client)))).map((o) => o.href)).toEqual([
      `${C}/ip_address_bindings/1`,
    ]);
    const forward = ipAddressBindingSpecSchema.parse({
      cloudHref: C,
      serverHref: "/api/servers/1",
      publicPort: 22,
      protocol: "TCP",
    });
    expect((await kind.lookup(client, await kind.desired(forward, ctx(client)))).map((o) => o.href)).toEqual([
      `${C}/ip_address_bindings/3`,
    ]);
    expect(calls).toEqual([
      `index ${C} {"ip_address_href":"${IP}","instance_href":"${I1}"}`,
      `index ${C} {}`,
    ]);
  });

  it("before a create, waits while a server it names has no current instance", async () => {
    const { client, calls } = fake();
    const d = await kind.desired(
      ipAddressBindingSpecSchema.parse({
        cloudHref: C,
        publicIpAddressHref: IP,
        serverHref: "/api/servers/2",
      }),
      ctx(client),
    );
    const error = await kind.beforeWrite!(client, d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toBe(
      "spec.serverHref: /api/servers/2 has no current instance to bind to",
    );
    await kind.beforeWrite!(client, { ...d, serverHref: "/api/servers/1" });
    await kind.beforeWrite!(client, { ...d, serverHref: undefined, instanceHref: I1 });
    expect(calls).toEqual(["links /api/servers/2", "links /api/servers/1"]);
  });

  it("drift is read per cloud, one index call each; the printer columns show recurring and the instance", async () => {
    const { client, calls } = fake([rep(1, { instance: I1 }, { recurring: true })]);
    const spec = ipAddressBindingSpecSchema.parse({
      cloudHref: C,
      publicIpAddressHref: IP,
      instanceHref: I1,
    });
    expect(kind.index?.scope(spec, {})).toBe(C);
    const [listed] = await kind.index!.list(client, C);
    expect(kind.atProvider(listed!)).toMatchObject({ cloudHref: C, recurring: true });
    expect(calls).toEqual([`index ${C} {}`]);
    const crd = buildCrd(crdSources([kind]).find((s) => s.kind === "IpAddressBinding")!);
    expect(crd.spec.versions[0].additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(["Recurring", "Instance"]),
    );
  });
});

describe("IpAddressBinding admission (CEL): spec 4.11's rules", () => {
  const admit = admitter(kind);
  const base = { cloudHref: C, instanceHref: I1 };
  it.each([
    {
      reason: "no instance nor server",
      spec: { cloudHref: C, publicIpAddressHref: IP },
      field: "spec.instanceHref",
    },
    {
      reason: "both instance and server",
      spec: { ...base, publicIpAddressHref: IP, serverHref: "/api/servers/1" },
      field: "spec.instanceHref",
    },
    {
      reason: "both address forms",
      spec: { ...base, publicIpAddressHref: IP, ipAddressRef: { name: "ip" } },
      field: "spec.ipAddressRef",
    },
    { reason: "no address and no port forwarding", spec: base, field: "spec.publicIpAddressHref" },
    { reason: "a public port without protocol", spec: { ...base, publicPort: 80 }, field: "spec.protocol" },
    {
      reason: "a protocol without public port",
      spec: { ...base, protocol: "TCP" },
      field: "spec.publicPort",
    },
    {
      reason: "a private port without public port",
      spec: { ...base, publicIpAddressHref: IP, privatePort: 80 },
      field: "spec.publicPort",
    },
    {
      reason: "a protocol outside the enum",
      spec: { ...base, publicPort: 80, protocol: "ICMP" },
      field: "spec.protocol",
    },
    {
      reason: "a port out of range",
      spec: { ...base, publicPort: 70000, protocol: "UDP" },
      field: "spec.publicPort",
    },
  ])("refuses $reason, naming $field", ({ spec, field }) => {
    expect(admit(spec).map((c) => c.field)).toContain(field);
  });

  it("accepts an address alone, port forwarding alone, and any change (it replaces the binding)", () => {
    expect(admit({ ...base, publicIpAddressHref: IP })).toEqual([]);
    expect(admit({ ...base, publicPort: 80, protocol: "TCP" })).toEqual([]);
    const old = { ...base, publicIpAddressHref: IP, publicPort: 80, protocol: "TCP" };
    expect(admit({ ...old, instanceHref: `${C}/instances/3`, protocol: "UDP" }, old)).toEqual([]);
  });
});
