import { describe, expect, it } from "vitest";
import { resources } from "../resources/index.ts";
import { SeedError, validateSeed } from "../seed.ts";
import { resourceUid } from "./records.ts";

describe("seed files with network and storage collections", () => {
  it("fill defaults, so short YAML records are enough", () => {
    const seed = validateSeed(
      {
        networks: [{ id: 5, cloud_id: 1, cidr_block: "10.5.0.0/16", default_route_table_id: 5 }],
        route_tables: [{ id: 5, cloud_id: 1, network_id: 5 }],
        subnets: [{ id: 1, cloud_id: 1, network_id: 5, cidr_block: "10.5.1.0/24" }],
        routes: [
          {
            id: 1,
            cloud_id: 1,
            route_table_id: 5,
            network_id: 5,
            destination_cidr_block: "0.0.0.0/0",
            next_hop_type: "ip_string",
            next_hop_ip: "10.5.0.1",
          },
        ],
        volumes: [{ id: 9, cloud_id: 1, name: "v", created_at: "2025/01/01 00:00:00 +0000" }],
      },
      resources,
    );
    expect(seed.networks?.[0]).toMatchObject({ id: "5", instance_tenancy: "default", is_default: false });
    expect(seed.route_tables?.[0]).toMatchObject({ name: "default", is_default: true });
    expect(seed.subnets?.[0]).toMatchObject({
      visibility: "private",
      route_table_id: null,
      instance_href: null,
    });
    expect(seed.routes?.[0]).toMatchObject({ state: "available", instance_tags: null, priority: null });
    expect(seed.volumes?.[0]).toMatchObject({
      size: 1,
      status: "available",
      created_at: Date.UTC(2025, 0, 1),
    });
  });

  it("refuse unknown fields and bad values, naming them", () => {
    expect(() => validateSeed({ networks: [{ id: 1, cloud_id: 1, colour: "red" }] }, resources)).toThrow(
      SeedError,
    );
    expect(() =>
      validateSeed({ network_gateways: [{ id: 1, cloud_id: 1, name: "g", type: "nat" }] }, resources),
    ).toThrow(/network_gateways\[0\]\.type/);
    expect(() =>
      validateSeed({ resource_groups: [{ id: 1, cloud_id: 1, name: "g", state: "gone" }] }, resources),
    ).toThrow(/resource_groups\[0\]\.state/);
  });

  it("derive stable provider uids from ids", () => {
    expect(resourceUid("vpc", "1")).toBe("vpc-00000001");
    expect(resourceUid("vol", "255")).toBe("vol-000000ff");
    expect(resourceUid("rtb", "abc")).toBe("rtb-abc");
  });
});
