import { describe, expect, it } from "vitest";
import {
  checkAllowedInstances,
  checkBinding,
  checkNextHop,
  checkVolumeCreate,
  type Members,
  routeRules,
  volumeRules,
} from "./params.ts";
import { checkWrapper } from "./rules.ts";

describe("route create rules", () => {
  const base = { destination_cidr_block: "0.0.0.0/0", route_table_href: "/api/route_tables/1" };
  it.each<[string, Members, string | undefined]>([
    [
      "gateway hop",
      { next_hop_type: "network_gateway", next_hop_href: "/api/network_gateways/1" },
      undefined,
    ],
    ["ip hop", { next_hop_type: "ip_string", next_hop_ip: "10.0.0.1" }, undefined],
    ["url hop", { next_hop_type: "url", next_hop_url: "http://x" }, undefined],
    [
      "instance without href",
      { next_hop_type: "instance" },
      "route[next_hop_href] is required when next_hop_type is 'instance'",
    ],
    [
      "ip without ip",
      { next_hop_type: "ip_string" },
      "route[next_hop_ip] is required when next_hop_type is 'ip_string'",
    ],
    [
      "url without url",
      { next_hop_type: "url" },
      "route[next_hop_url] is required when next_hop_type is 'url'",
    ],
    [
      "href with ip type",
      { next_hop_type: "ip_string", next_hop_ip: "10.0.0.1", next_hop_href: "/x" },
      "route[next_hop_href] is not allowed when next_hop_type is 'ip_string'",
    ],
    [
      "ip with gateway type",
      { next_hop_type: "network_gateway", next_hop_href: "/x", next_hop_ip: "10.0.0.1" },
      "route[next_hop_ip] is not allowed when next_hop_type is 'network_gateway'",
    ],
    [
      "url with instance type",
      { next_hop_type: "instance", next_hop_href: "/x", next_hop_url: "http://x" },
      "route[next_hop_url] is not allowed when next_hop_type is 'instance'",
    ],
  ])("%s", (_reason, hop, expected) => {
    const route = { ...base, ...hop };
    expect(checkWrapper({ route }, "route", routeRules.create)).toBeUndefined();
    expect(checkNextHop(route)?.message).toBe(expected);
  });

  it("checks formats before conditions", () => {
    const route = { ...base, next_hop_type: "ip_string", next_hop_ip: "10.0.0.256" };
    expect(checkWrapper({ route }, "route", routeRules.create)?.param).toBe("route[next_hop_ip]");
    const bad = { ...base, destination_cidr_block: "10.0.0.0/123", next_hop_type: "url", next_hop_url: "x" };
    expect(checkWrapper({ route: bad }, "route", routeRules.create)?.param).toBe(
      "route[destination_cidr_block]",
    );
  });
});

describe("route update rules", () => {
  it("refuses next_hop_url and the url type", () => {
    expect(checkWrapper({ route: { next_hop_url: "http://x" } }, "route", routeRules.update)?.message).toBe(
      "route[next_hop_url] is not allowed",
    );
    expect(checkWrapper({ route: { next_hop_type: "url" } }, "route", routeRules.update)?.param).toBe(
      "route[next_hop_type]",
    );
  });
  it("uses the current type when the request names none", () => {
    expect(checkNextHop({ next_hop_ip: "10.0.0.2" }, "ip_string")).toBeUndefined();
    expect(checkNextHop({ next_hop_href: "/x" }, "ip_string")?.param).toBe("route[next_hop_href]");
    expect(checkNextHop({ description: "d" }, "url")).toBeUndefined();
  });
  it("requires the matching member when the request names a type", () => {
    expect(checkNextHop({ next_hop_type: "ip_string" }, "network_gateway")?.param).toBe("route[next_hop_ip]");
    expect(checkNextHop({ next_hop_type: "instance", next_hop_href: "/i" }, "ip_string")).toBeUndefined();
  });
});

describe("IP address binding rules", () => {
  it.each<[string, Members, boolean, string | undefined]>([
    ["instance and public ip", { instance_href: "/i", public_ip_address_href: "/ip" }, false, undefined],
    [
      "server with port forwarding",
      { server_href: "/s", public_port: "80", protocol: "TCP" },
      false,
      undefined,
    ],
    ["nested path stands for the ip", { instance_href: "/i" }, true, undefined],
    [
      "both targets",
      { instance_href: "/i", server_href: "/s", public_ip_address_href: "/ip" },
      false,
      "ip_address_binding[server_href] is mutually exclusive with ip_address_binding[instance_href]",
    ],
    [
      "no target",
      { public_ip_address_href: "/ip" },
      false,
      "ip_address_binding[instance_href] or ip_address_binding[server_href] is required",
    ],
    [
      "no ip and no port",
      { instance_href: "/i", protocol: "TCP" },
      false,
      "ip_address_binding[public_port] is required unless ip_address_binding[public_ip_address_href] is passed",
    ],
    [
      "no ip and no protocol",
      { instance_href: "/i", public_port: "80" },
      false,
      "ip_address_binding[protocol] is required unless ip_address_binding[public_ip_address_href] is passed",
    ],
    [
      "private port alone",
      { instance_href: "/i", public_ip_address_href: "/ip", private_port: "8080" },
      false,
      "ip_address_binding[public_port] is required when ip_address_binding[private_port] is passed",
    ],
  ])("%s", (_reason, binding, nested, expected) => {
    expect(checkBinding(binding, nested)?.message).toBe(expected);
  });
});

describe("volume rules", () => {
  const everything = { datacenterRequired: true, supportsEncryption: true, supportsIops: true };
  it("refuses placement group with a snapshot", () => {
    expect(
      checkVolumeCreate(
        { name: "v", datacenter_href: "/d", placement_group_href: "/pg", parent_volume_snapshot_href: "/s" },
        everything,
      )?.message,
    ).toBe("volume[placement_group_href] cannot be combined with volume[parent_volume_snapshot_href]");
  });
  it("applies the cloud's capabilities", () => {
    expect(checkVolumeCreate({ name: "v" }, everything)?.param).toBe("volume[datacenter_href]");
    expect(checkVolumeCreate({ name: "v" }, { ...everything, datacenterRequired: false })).toBeUndefined();
    const none = { datacenterRequired: false, supportsEncryption: false, supportsIops: false };
    expect(checkVolumeCreate({ name: "v", encrypted: "true" }, none)?.param).toBe("volume[encrypted]");
    expect(checkVolumeCreate({ name: "v", iops: "100" }, none)?.param).toBe("volume[iops]");
  });
  it("checks size digits and allowed instance sets", () => {
    expect(checkWrapper({ volume: { name: "v", size: "1.5" } }, "volume", volumeRules.create)?.param).toBe(
      "volume[size]",
    );
    expect(
      checkAllowedInstances({ allowed_instance_hrefs: { add: ["/a", "/b"], remove: ["/b"] } })?.message,
    ).toBe("volume[allowed_instance_hrefs] names /b in both [add] and [remove]");
    expect(
      checkAllowedInstances({ allowed_instance_hrefs: { add: ["/a"], remove: ["/b"] } }),
    ).toBeUndefined();
  });
});
