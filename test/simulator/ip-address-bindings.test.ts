import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, rel, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const B = "/api/clouds/1/ip_address_bindings";
const IP = "/api/clouds/1/ip_addresses/1";
const CURRENT = "/api/clouds/1/instances/1";
const NEXT = "/api/clouds/1/instances/3";

beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub-1" } });
  await create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub-2" } });
});

describe("IP address bindings", () => {
  it("binds a current instance one-time: 201 + Location, recurring false", async () => {
    const res = await h.admin.post(B, {
      form: { ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${B}/1`);
    expect(await show(h, `${B}/1`)).toEqual({
      created_at: "2026/01/01 00:00:00 +0000",
      recurring: false,
      public_port: null,
      private_port: null,
      protocol: null,
      links: [
        { rel: "self", href: `${B}/1` },
        { rel: "instance", href: CURRENT },
        { rel: "ip_address", href: IP },
      ],
    });
  });

  it("binds a next instance recurringly, and a server through its current instance", async () => {
    await create(h, B, { ip_address_binding: { instance_href: NEXT, public_ip_address_href: IP } });
    await create(h, B, { ip_address_binding: { server_href: "/api/servers/1", public_ip_address_href: IP } });
    const [next, server] = await index(h, B);
    expect(next!.recurring).toBe(true);
    expect(server!.recurring).toBe(false);
    expect(rel(server!, "instance")).toBe(CURRENT);
    const xml = await h.admin.get(`${B}/1.xml`);
    expect(xml.text).toContain("<recurring>true</recurring>");
  });

  it("forwards ports: private port defaults to the public one", async () => {
    await create(h, B, {
      ip_address_binding: { instance_href: CURRENT, public_port: "8080", protocol: "TCP" },
    });
    await create(h, B, {
      ip_address_binding: {
        instance_href: CURRENT,
        public_port: "53",
        private_port: "5353",
        protocol: "UDP",
      },
    });
    const [a, b] = await index(h, B);
    expect(a).toMatchObject({ public_port: 8080, private_port: 8080, protocol: "TCP" });
    expect(rel(a!, "ip_address")).toBeUndefined();
    expect(b).toMatchObject({ public_port: 53, private_port: 5353, protocol: "UDP" });
  });

  it("serves the ip address prefix: the path stands for public_ip_address_href and scopes index/show", async () => {
    expect(
      await create(h, `${IP}/ip_address_bindings`, { ip_address_binding: { instance_href: CURRENT } }),
    ).toBe(`${B}/1`);
    await create(h, B, {
      ip_address_binding: { instance_href: CURRENT, public_ip_address_href: "/api/clouds/1/ip_addresses/2" },
    });
    expect((await index(h, `${IP}/ip_address_bindings`)).length).toBe(1);
    expect(rel(await show(h, `${IP}/ip_address_bindings/1`), "ip_address")).toBe(IP);
    await expectRefused(
      h,
      () => h.admin.get(`${IP}/ip_address_bindings/2`),
      422,
      "Couldn't find IpAddressBinding with ID=2",
    );
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/ip_addresses/9/ip_address_bindings"),
      422,
      "Couldn't find IpAddress with ID=9",
    );
    expect((await h.admin.delete(`${IP}/ip_address_bindings/1`)).status).toBe(204);
    expect((await h.admin.delete(`${B}/2`)).status).toBe(204);
  });

  it("filters by instance_href and ip_address_href; has no update", async () => {
    await create(h, B, { ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP } });
    await create(h, B, {
      ip_address_binding: { instance_href: NEXT, public_ip_address_href: "/api/clouds/1/ip_addresses/2" },
    });
    const recurring = async (...f: string[]) => (await index(h, B, f)).map((b) => b.recurring);
    expect(await recurring(`instance_href==${NEXT}`)).toEqual([true]);
    expect(await recurring(`ip_address_href==${IP}`)).toEqual([false]);
    expect(await recurring(`ip_address_href<>${IP}`)).toEqual([true]);
    expect((await h.admin.get(B, { query: { filter: ["recurring==true"] } })).status).toBe(400);
    expect((await h.admin.put(`${B}/1`, { json: {} })).status).toBe(405);
  });

  it("roles: observer reads, actor creates and destroys", async () => {
    await expectRefused(h, () => h.user2.get(B), 403, "observer");
    await expectRefused(
      h,
      () =>
        h.user2.post(B, {
          json: { ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP } },
        }),
      403,
      "actor",
    );
  });

  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "ip_address_binding is required" },
    {
      reason: "instance and server",
      body: {
        ip_address_binding: {
          instance_href: CURRENT,
          server_href: "/api/servers/1",
          public_ip_address_href: IP,
        },
      },
      status: 400,
      message: "ip_address_binding[server_href] is mutually exclusive with ip_address_binding[instance_href]",
    },
    {
      reason: "neither instance nor server",
      body: { ip_address_binding: { public_ip_address_href: IP } },
      status: 400,
      message: "ip_address_binding[instance_href] or ip_address_binding[server_href] is required",
    },
    {
      reason: "no ip and no port forwarding",
      body: { ip_address_binding: { instance_href: CURRENT } },
      status: 400,
      message:
        "ip_address_binding[public_port] is required unless ip_address_binding[public_ip_address_href] is passed",
    },
    {
      reason: "no ip and no protocol",
      body: { ip_address_binding: { instance_href: CURRENT, public_port: "80" } },
      status: 400,
      message:
        "ip_address_binding[protocol] is required unless ip_address_binding[public_ip_address_href] is passed",
    },
    {
      reason: "private port without public port",
      body: {
        ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP, private_port: "80" },
      },
      status: 400,
      message: "ip_address_binding[public_port] is required when ip_address_binding[private_port] is passed",
    },
    {
      reason: "bad protocol",
      body: { ip_address_binding: { instance_href: CURRENT, public_port: "80", protocol: "ICMP" } },
      status: 400,
      message: "ip_address_binding[protocol] must be one of UDP, TCP",
    },
    {
      reason: "port zero",
      body: { ip_address_binding: { instance_href: CURRENT, public_port: "0", protocol: "TCP" } },
      status: 400,
      message: "ip_address_binding[public_port] must be a port number from 1 to 65535",
    },
    {
      reason: "port too large",
      body: { ip_address_binding: { instance_href: CURRENT, public_port: "70000", protocol: "TCP" } },
      status: 400,
      message: "ip_address_binding[public_port] must be a port number",
    },
    {
      reason: "private port not digits",
      body: {
        ip_address_binding: {
          instance_href: CURRENT,
          public_port: "80",
          private_port: "http",
          protocol: "TCP",
        },
      },
      status: 400,
      message: "ip_address_binding[private_port] must be a port number",
    },
    {
      reason: "unknown instance",
      body: {
        ip_address_binding: { instance_href: "/api/clouds/1/instances/90", public_ip_address_href: IP },
      },
      status: 422,
      message: "Couldn't find Instance with ID=90",
    },
    {
      reason: "instance of another cloud",
      body: {
        ip_address_binding: { instance_href: "/api/clouds/2/instances/7", public_ip_address_href: IP },
      },
      status: 422,
      message: "Instance 7 is in cloud 2, not cloud 1",
    },
    {
      reason: "malformed instance",
      body: { ip_address_binding: { instance_href: "/api/servers/1", public_ip_address_href: IP } },
      status: 400,
      message: "ip_address_binding[instance_href] must be an instance href",
    },
    {
      reason: "unknown server",
      body: { ip_address_binding: { server_href: "/api/servers/9", public_ip_address_href: IP } },
      status: 422,
      message: "Couldn't find Server with ID=9",
    },
    {
      reason: "server without a current instance",
      body: { ip_address_binding: { server_href: "/api/servers/2", public_ip_address_href: IP } },
      status: 422,
      message: "Server 2 has no current instance",
    },
    {
      reason: "unknown ip address",
      body: {
        ip_address_binding: {
          instance_href: CURRENT,
          public_ip_address_href: "/api/clouds/1/ip_addresses/9",
        },
      },
      status: 422,
      message: "Couldn't find IpAddress with ID=9",
    },
    {
      reason: "unknown member",
      body: { ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP, recurring: "true" } },
      status: 400,
      message: "ip_address_binding[recurring] is not allowed",
    },
    {
      reason: "form: bad protocol",
      body: { ip_address_binding: { instance_href: CURRENT, public_port: "80", protocol: "tcp" } },
      status: 400,
      message: "ip_address_binding[protocol]",
      form: true,
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", B, row);
  });

  it("nested create refuses another public ip; unknown clouds and ids are 422", async () => {
    await refuse(h, "POST", `${IP}/ip_address_bindings`, {
      reason: "mismatch",
      body: {
        ip_address_binding: {
          instance_href: CURRENT,
          public_ip_address_href: "/api/clouds/1/ip_addresses/2",
        },
      },
      status: 422,
      message: "ip_address_binding[public_ip_address_href] must name IP address 1 of the path",
    });
    await refuse(h, "POST", "/api/clouds/6/ip_address_bindings", {
      reason: "cloud",
      body: { ip_address_binding: { instance_href: CURRENT, public_ip_address_href: IP } },
      status: 422,
      message: "Couldn't find Cloud with ID=6",
    });
    await expectRefused(h, () => h.admin.delete(`${B}/3`), 422, "Couldn't find IpAddressBinding with ID=3");
  });
});
