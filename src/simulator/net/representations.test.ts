import { describe, expect, it } from "vitest";
import { attachmentRepresentation } from "../resources/recurring-volume-attachments.ts";
import { routeRepresentation } from "../resources/routes.ts";
import { SUBNET_PENDING_MS, subnetRepresentation, subnetState } from "../resources/subnets.ts";
import { volumeRepresentation } from "../resources/volumes.ts";
import {
  type RecurringVolumeAttachmentRecord,
  type RouteRecord,
  routeSchema,
  type SubnetRecord,
  subnetSchema,
  type VolumeRecord,
  volumeSchema,
} from "./records.ts";

const T0 = Date.UTC(2026, 0, 1);

describe("representation builders", () => {
  it("route: next-hop fields, next_hop link only for href hops, attributes null for a global route", () => {
    const base: RouteRecord = routeSchema.parse({
      id: "3",
      cloud_id: "1",
      route_table_id: "2",
      network_id: "4",
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.1",
      created_at: T0,
      updated_at: T0,
    });
    const ip = routeRepresentation(base);
    expect(ip).toMatchObject({
      next_hop_ip: "10.0.0.1",
      next_hop_url: null,
      cloud_specific_attributes: null,
    });
    // The real route has no next_hop_href attribute and no network link (the record keeps both).
    expect(ip).not.toHaveProperty("next_hop_href");
    expect((ip.links as Array<{ rel: string }>).map((l) => l.rel)).toEqual(["self", "route_table", "cloud"]);
    const tagged = routeRepresentation({
      ...base,
      next_hop_type: "network_gateway",
      next_hop_ip: null,
      next_hop_href: "/api/network_gateways/1",
      priority: 0,
    });
    expect(tagged.cloud_specific_attributes).toEqual({ priority: 0 });
    expect((tagged.links as Array<{ rel: string }>).map((l) => l.rel)).toEqual([
      "self",
      "route_table",
      "next_hop",
      "cloud",
    ]);
    expect(tagged.links).toContainEqual({ rel: "next_hop", href: "/api/network_gateways/1" });
    expect(tagged.created_at).toBe("2026/01/01 00:00:00 +0000");
  });

  it("subnet: pending for SUBNET_PENDING_MS, effective route table falls back to the default", () => {
    const subnet: SubnetRecord = subnetSchema.parse({
      id: "1",
      cloud_id: "1",
      network_id: "2",
      cidr_block: "10.0.1.0/24",
      available_at: T0 + SUBNET_PENDING_MS,
    });
    expect(subnetState(subnet, T0)).toBe("pending");
    expect(subnetState(subnet, T0 + SUBNET_PENDING_MS)).toBe("available");
    expect(subnetRepresentation(subnet, "9", T0).links).toContainEqual({
      rel: "effective_route_table",
      href: "/api/route_tables/9",
    });
    const explicit = subnetRepresentation({ ...subnet, route_table_id: "5" }, "9", T0);
    expect(explicit.links).toContainEqual({ rel: "route_table", href: "/api/route_tables/5" });
    expect(explicit.links).toContainEqual({ rel: "effective_route_table", href: "/api/route_tables/5" });
  });

  it("volume: integer size, cloud-specific attributes only when set", () => {
    const volume: VolumeRecord = volumeSchema.parse({ id: "2", cloud_id: "1", name: "v", size: 40 });
    const plain = volumeRepresentation(volume);
    expect(plain.size).toBe(40);
    expect(plain.cloud_specific_attributes).toBeNull();
    expect(plain.actions).toEqual([]);
    expect(
      volumeRepresentation({ ...volume, encrypted: false, allowed_instance_hrefs: ["/i"] })
        .cloud_specific_attributes,
    ).toEqual({
      allowed_instance_hrefs: ["/i"],
      encrypted: false,
    });
  });

  it("recurring attachment: size as text", () => {
    const attachment = {
      id: "1",
      cloud_id: "1",
      name: "v",
      device: "/dev/xvdc",
      device_id: "xvdc",
      runnable_href: "/api/servers/1",
      runnable_type: "Server",
      storage_href: "/api/clouds/1/volumes/2",
      storage_type: "Volume",
      settings: {},
      volume_type_href: null,
      size: 7,
      status: "attached",
      created_at: T0,
      updated_at: T0,
    } satisfies RecurringVolumeAttachmentRecord;
    expect(attachmentRepresentation(attachment).size).toBe("7 GB");
  });
});
