import { describe, expect, it } from "vitest";
import { SimError } from "../errors.ts";
import { type ParamRule, validateParams } from "../validate.ts";
import {
  checkAllowedInstances,
  checkBinding,
  checkNextHop,
  checkSettings,
  checkVolumeCreate,
  ipAddressBindingRules,
  type Members,
  recurringVolumeAttachmentRules,
  routeRules,
  volumeRules,
} from "./params.ts";

/** The 400 message a call throws, or undefined when it passes. */
function rejection(call: () => unknown): string | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    if (error instanceof SimError && error.status === 400) return error.message;
    throw error;
  }
}

const check = (wrapper: string, rule: ParamRule, members: unknown) =>
  rejection(() => validateParams({ [wrapper]: members }, { [wrapper]: rule }));

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
    expect(check("route", routeRules.create, route)).toBeUndefined();
    expect(rejection(() => checkNextHop(route))).toBe(expected);
  });

  it.each<[string, Members, string]>([
    ["octet over 255", { next_hop_ip: "10.0.0.256" }, "route[next_hop_ip]"],
    ["prefix over 32", { destination_cidr_block: "10.0.0.0/33" }, "route[destination_cidr_block]"],
    ["three digit prefix", { destination_cidr_block: "10.0.0.0/008" }, "route[destination_cidr_block]"],
    ["no prefix", { destination_cidr_block: "10.0.0.0" }, "route[destination_cidr_block]"],
    ["three octets", { destination_cidr_block: "10.0.0/8" }, "route[destination_cidr_block]"],
    ["unknown type", { next_hop_type: "vpn" }, "route[next_hop_type]"],
    ["blank table", { route_table_href: "" }, "route[route_table_href]"],
    [
      "priority text",
      { cloud_specific_attributes: { priority: "high" } },
      "route[cloud_specific_attributes][priority]",
    ],
    [
      "tags not array",
      { cloud_specific_attributes: { instance_tags: "web" } },
      "route[cloud_specific_attributes][instance_tags]",
    ],
    [
      "unknown attribute",
      { cloud_specific_attributes: { zone: "a" } },
      "route[cloud_specific_attributes][zone]",
    ],
  ])("format: %s", (_reason, change, param) => {
    const route = { ...base, next_hop_type: "ip_string", next_hop_ip: "10.0.0.1", ...change };
    expect(check("route", routeRules.create, route)).toMatch(
      new RegExp(`^${param.replace(/[[\]]/g, "\\$&")} `),
    );
  });
});

describe("route update rules", () => {
  it("refuses next_hop_url and the url type", () => {
    expect(check("route", routeRules.update, { next_hop_url: "http://x" })).toBe(
      "route[next_hop_url] is not allowed",
    );
    expect(check("route", routeRules.update, { next_hop_type: "url" })).toMatch(
      /^route\[next_hop_type\] must be one of/,
    );
    expect(check("route", routeRules.update, {})).toBe("route must not be blank");
  });
  it("uses the current type when the request names none", () => {
    expect(rejection(() => checkNextHop({ next_hop_ip: "10.0.0.2" }, "ip_string"))).toBeUndefined();
    expect(rejection(() => checkNextHop({ next_hop_href: "/x" }, "ip_string"))).toMatch(
      /^route\[next_hop_href\]/,
    );
    expect(rejection(() => checkNextHop({ description: "d" }, "url"))).toBeUndefined();
  });
  it("requires the matching member when the request names a type", () => {
    expect(rejection(() => checkNextHop({ next_hop_type: "ip_string" }, "network_gateway"))).toMatch(
      /^route\[next_hop_ip\] is required/,
    );
    expect(
      rejection(() => checkNextHop({ next_hop_type: "instance", next_hop_href: "/i" }, "ip_string")),
    ).toBeUndefined();
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
    expect(rejection(() => checkBinding(binding, nested))).toBe(expected);
  });

  it.each(["0", "65536", "80a", "-1"])("refuses port %s", (port) => {
    expect(
      check("ip_address_binding", ipAddressBindingRules.create, { instance_href: "/i", public_port: port }),
    ).toMatch(/^ip_address_binding\[public_port\] must be a port number/);
  });
  it("refuses a lower-case protocol", () => {
    expect(check("ip_address_binding", ipAddressBindingRules.create, { protocol: "tcp" })).toMatch(
      /^ip_address_binding\[protocol\] must be one of UDP, TCP/,
    );
  });
});

describe("volume rules", () => {
  const everything = { datacenterRequired: true, supportsEncryption: true, supportsIops: true };
  it("refuses placement group with a snapshot", () => {
    const volume = {
      name: "v",
      datacenter_href: "/d",
      placement_group_href: "/pg",
      parent_volume_snapshot_href: "/s",
    };
    expect(rejection(() => checkVolumeCreate(volume, everything))).toBe(
      "volume[placement_group_href] cannot be combined with volume[parent_volume_snapshot_href]",
    );
  });
  it("applies the cloud's capabilities", () => {
    expect(rejection(() => checkVolumeCreate({ name: "v" }, everything))).toMatch(
      /^volume\[datacenter_href\]/,
    );
    expect(
      rejection(() => checkVolumeCreate({ name: "v" }, { ...everything, datacenterRequired: false })),
    ).toBeUndefined();
    const none = { datacenterRequired: false, supportsEncryption: false, supportsIops: false };
    expect(rejection(() => checkVolumeCreate({ name: "v", encrypted: "true" }, none))).toMatch(
      /^volume\[encrypted\]/,
    );
    expect(rejection(() => checkVolumeCreate({ name: "v", iops: "100" }, none))).toMatch(/^volume\[iops\]/);
  });
  it("checks size digits, encrypted values and allowed instance sets", () => {
    expect(check("volume", volumeRules.create, { name: "v", size: "1.5" })).toMatch(
      /^volume\[size\] must be digits only/,
    );
    expect(check("volume", volumeRules.create, { name: "v", size: 10 })).toBeUndefined();
    expect(check("volume", volumeRules.create, { name: "v", encrypted: "yes" })).toMatch(
      /^volume\[encrypted\]/,
    );
    expect(check("volume", volumeRules.create, { size: "1" })).toBe("volume[name] is required");
    expect(check("volume", volumeRules.update, { allowed_instance_hrefs: { add: "/i" } })).toBe(
      "volume[allowed_instance_hrefs][add] must be an Array",
    );
    expect(
      rejection(() =>
        checkAllowedInstances({ allowed_instance_hrefs: { add: ["/a", "/b"], remove: ["/b"] } }),
      ),
    ).toBe("volume[allowed_instance_hrefs] names /b in both [add] and [remove]");
    expect(
      rejection(() => checkAllowedInstances({ allowed_instance_hrefs: { add: ["/a"], remove: ["/b"] } })),
    ).toBe(undefined);
  });
});

describe("recurring volume attachment rules", () => {
  const base = { runnable_href: "/api/servers/1", storage_href: "/api/clouds/1/volumes/1" };
  it.each(["/dev/xvdb", "/dev/xvdj", "/dev/xvde"])("accepts device %s", (device) => {
    expect(
      check("recurring_volume_attachment", recurringVolumeAttachmentRules.create, { ...base, device }),
    ).toBe(undefined);
  });
  it.each(["/dev/xvda", "/dev/xvdd", "/dev/xvdk", "/dev/sdb", "/dev/xvdbb", "xvdb"])(
    "refuses device %s",
    (device) => {
      expect(
        check("recurring_volume_attachment", recurringVolumeAttachmentRules.create, { ...base, device }),
      ).toMatch(/^recurring_volume_attachment\[device\] must be \/dev\/xvd followed by/);
    },
  );
  it("keeps settings as strings", () => {
    expect(checkSettings({ settings: { delete_on_termination: true, a: "b" } })).toEqual({
      delete_on_termination: "true",
      a: "b",
    });
    const odd = checkSettings(JSON.parse('{"settings":{"__proto__":"x"}}'));
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(Object.hasOwn(odd, "__proto__")).toBe(true);
    expect(rejection(() => checkSettings({ settings: { a: { b: "c" } } }))).toBe(
      "recurring_volume_attachment[settings][a] must be a String",
    );
  });
});
