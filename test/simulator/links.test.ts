import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { create } from "./net-helpers.ts";

// Every link the simulator emits must resolve: a client (or the operator) following any rel
// of any representation gets the linked object or collection, never a 404 (unknown route)
// nor a 422 (dangling id). A 400 is allowed for a collection that needs parameters to be
// listed (audit entries index, monitoring data).
const h = await startSimulator();
afterAll(() => h.close());

interface Link {
  rel: string;
  href: string;
}

const ENTRY_POINTS = [
  "/api/session",
  "/api/deployments",
  "/api/clouds",
  "/api/servers",
  "/api/server_arrays",
  "/api/server_templates",
  "/api/stored_scripts",
  "/api/users",
  "/api/permissions",
  "/api/networks",
  "/api/route_tables",
  "/api/routes",
  "/api/network_gateways",
  "/api/resource_groups",
  "/api/alert_specs",
  "/api/audit_entries?start_date=2025/01/01%2000:00:00%20%2B0000&end_date=2025/02/01%2000:00:00%20%2B0000&limit=1000",
  "/api/clouds/1/ip_address_bindings",
  "/api/clouds/1/subnets",
  "/api/clouds/1/instances/1/subnets",
];

function linksOf(body: unknown): Link[] {
  const objects = Array.isArray(body) ? body : [body];
  return objects.flatMap((o) =>
    o !== null && typeof o === "object" && Array.isArray((o as { links?: unknown }).links)
      ? (o as { links: Link[] }).links
      : [],
  );
}

beforeAll(async () => {
  // Objects of the resources the default seed does not hold, so their links are walked too.
  await create(h, "/api/networks", { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } });
  await create(h, "/api/clouds/1/subnets", {
    subnet: {
      network_href: "/api/networks/1",
      cidr_block: "10.0.1.0/24",
      datacenter_href: "/api/clouds/1/datacenters/1",
    },
  });
  await create(h, "/api/clouds/1/instances/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.2.0/24" },
  });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
  });
  expect(
    (
      await h.admin.put("/api/network_gateways/1", {
        json: { network_gateway: { network_href: "/api/networks/1" } },
      })
    ).status,
  ).toBe(204);
  for (const route of [
    {
      next_hop_type: "network_gateway",
      next_hop_href: "/api/network_gateways/1",
      destination_cidr_block: "0.0.0.0/0",
    },
    {
      next_hop_type: "instance",
      next_hop_href: "/api/clouds/1/instances/1",
      destination_cidr_block: "10.9.0.0/16",
    },
    { next_hop_type: "ip_string", next_hop_ip: "10.0.0.9", destination_cidr_block: "10.8.0.0/16" },
    { next_hop_type: "url", next_hop_url: "https://hop.example.com", destination_cidr_block: "10.7.0.0/16" },
    {
      next_hop_type: "network_interface",
      next_hop_href: "/api/clouds/1/network_interfaces/eni-2",
      destination_cidr_block: "10.6.0.0/16",
    },
  ])
    await create(h, "/api/routes", { route: { route_table_href: "/api/route_tables/1", ...route } });
  await create(h, "/api/clouds/1/ip_addresses", {
    ip_address: { name: "pub-1", deployment_href: "/api/deployments/1" },
  });
  await create(h, "/api/clouds/1/ip_address_bindings", {
    ip_address_binding: {
      instance_href: "/api/clouds/1/instances/1",
      public_ip_address_href: "/api/clouds/1/ip_addresses/1",
    },
  });
  await create(h, "/api/resource_groups", {
    resource_group: { cloud_href: "/api/clouds/1", name: "rg", deployment_href: "/api/deployments/1" },
  });
  const volume = await create(h, "/api/clouds/1/volumes", {
    volume: {
      name: "data",
      size: "10",
      datacenter_href: "/api/clouds/1/datacenters/1",
      deployment_href: "/api/deployments/1",
      volume_type_href: "/api/clouds/1/volume_types/1",
    },
  });
  await create(h, "/api/clouds/1/recurring_volume_attachments", {
    recurring_volume_attachment: {
      device: "/dev/xvdb",
      runnable_href: "/api/servers/1",
      storage_href: volume,
    },
  });
  await create(h, "/api/clouds/1/recurring_volume_attachments", {
    recurring_volume_attachment: {
      device: "/dev/xvdc",
      runnable_href: "/api/server_arrays/1",
      storage_href: "/api/clouds/1/volume_snapshots/1",
    },
  });
});

describe("links", () => {
  it("every link of every representation reachable from the indexes resolves (no 404, no 422)", async () => {
    const seen = new Set<string>();
    const queue = [...ENTRY_POINTS];
    const broken: string[] = [];
    const followed = new Set<string>();
    while (queue.length > 0) {
      const href = queue.shift()!;
      if (seen.has(href)) continue;
      seen.add(href);
      const res = await h.admin.get(href);
      if (res.status !== 200 && res.status !== 400) {
        broken.push(`${href} -> ${res.status} ${res.text.slice(0, 120)}`);
        continue;
      }
      if (res.status !== 200 || !/\+json/.test(res.headers.get("content-type") ?? "")) continue;
      for (const l of linksOf(res.json())) {
        followed.add(l.rel);
        if (!seen.has(l.href)) queue.push(l.href);
      }
    }
    expect(broken).toEqual([]);
    // The walk really reached the objects: a sample of rels from every area was followed.
    for (const rel of [
      "security_groups",
      "ssh_keys",
      "volume_attachments",
      "alerts",
      "volume_snapshots",
      "current_volume_attachment",
      "default_route_table",
      "next_hop",
      "instance",
      "effective_route_table",
      "ip_address_bindings",
      "recurring_volume_attachments",
      "detail",
      "data",
      "source",
      "subject",
      "auditee",
      "storage",
      "runnable",
    ])
      expect(followed, rel).toContain(rel);
    expect(seen.size).toBeGreaterThan(100);
  });
});

describe("link targets beyond the spec", () => {
  it("a cloud's security groups and SSH keys: index, show, 422 for another cloud's id", async () => {
    for (const plural of ["security_groups", "ssh_keys"]) {
      const list = (await h.admin.get(`/api/clouds/2/${plural}`)).json<
        Array<{ name: string; links: Link[] }>
      >();
      expect(list.map((o) => o.links[0]!.href)).toEqual([`/api/clouds/2/${plural}/2`]);
      expect((await h.admin.get(`/api/clouds/2/${plural}/2`)).status).toBe(200);
      expect((await h.admin.get(`/api/clouds/1/${plural}/2`)).status).toBe(422);
    }
  });

  it("volume attachments follow the in-use volumes; a volume lists the snapshots taken of it", async () => {
    const attachments = (await h.admin.get("/api/clouds/1/volume_attachments")).json<
      Array<{ links: Link[] }>
    >();
    expect(attachments.map((a) => a.links)).toEqual([
      [
        { rel: "self", href: "/api/clouds/1/volume_attachments/1" },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "volume", href: "/api/clouds/1/volumes/1" },
        { rel: "instance", href: "/api/clouds/1/instances/1" },
      ],
    ]);
    // volume 2 (created above) is not attached
    const res = await h.admin.get("/api/clouds/1/volume_attachments/2");
    expect([res.status, res.text]).toEqual([
      422,
      "ResourceNotFound: Couldn't find VolumeAttachment with ID=2",
    ]);
    const snaps = (await h.admin.get("/api/clouds/1/volumes/1/volume_snapshots")).json<
      Array<{ links: Link[] }>
    >();
    expect(snaps.map((s) => s.links[0]!.href)).toEqual(["/api/clouds/1/volume_snapshots/1"]);
    expect((await h.admin.get("/api/clouds/1/volumes/2/volume_snapshots")).json()).toEqual([]);
  });

  it("each instance has one network interface eni-<instance id>; a route hop must name one", async () => {
    const nics = (await h.admin.get("/api/clouds/2/network_interfaces")).json<
      Array<{ name: string; links: Link[] }>
    >();
    expect(nics).toEqual([
      {
        name: "lab-vm eth0",
        resource_uid: expect.any(String),
        links: [
          { rel: "self", href: "/api/clouds/2/network_interfaces/eni-7" },
          { rel: "cloud", href: "/api/clouds/2" },
          { rel: "instance", href: "/api/clouds/2/instances/7" },
        ],
      },
    ]);
    expect((await h.admin.get("/api/clouds/1/network_interfaces/eni-7")).status).toBe(422);
    const hop = (href: string) =>
      h.expectUnchanged(() =>
        h.admin.post("/api/routes", {
          json: {
            route: {
              route_table_href: "/api/route_tables/1",
              destination_cidr_block: "10.5.0.0/16",
              next_hop_type: "network_interface",
              next_hop_href: href,
            },
          },
        }),
      );
    const unknown = await hop("/api/clouds/1/network_interfaces/eni-99");
    expect([unknown.status, unknown.text]).toEqual([
      422,
      "ResourceNotFound: Couldn't find NetworkInterface with ID=eni-99",
    ]);
    const elsewhere = await hop("/api/clouds/2/network_interfaces/eni-7");
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.text).toMatch(/^ActionNotAllowed: Network interface eni-7 is in cloud 2/);
  });

  it("a deployment's alerts are an empty collection; the account shows its name", async () => {
    const alerts = await h.admin.get("/api/deployments/1/alerts");
    expect(alerts.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.alert\+json;type=collection/);
    expect(alerts.json()).toEqual([]);
    expect((await h.admin.get("/api/deployments/99/alerts")).status).toBe(422);
    const account = (await h.admin.get("/api/accounts/1")).json<{ name: string; links: Link[] }>();
    expect(account.links).toEqual([
      { rel: "self", href: "/api/accounts/1" },
      { rel: "owner", href: "/api/users/1" },
    ]);
  });
});
