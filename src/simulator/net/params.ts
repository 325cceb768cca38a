/**
 * The parameter rules of spec section 4 for the network and storage resources, as data
 * (checked by rules.ts), plus the conditional rules that span several members.
 */
import { isCidr, isDottedQuad } from "./cidr.ts";
import { digitsOnly, type Format, type MemberRule, ParamViolation, stringOf, wrapperRule } from "./rules.ts";

export const cidrFormat: Format = {
  description: "an IPv4 CIDR block (dotted quad, slash, 1 to 2 digit prefix)",
  test: isCidr,
};
export const dottedQuadFormat: Format = { description: "an IPv4 dotted quad", test: isDottedQuad };
export const deviceFormat: Format = {
  description: "/dev/xvd followed by one of b c e f g h i j",
  test: (v) => /^\/dev\/xvd[bcefghij]$/.test(v),
};
export const portFormat: Format = {
  description: "a port number from 1 to 65535",
  test: (v) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535,
};

export const NEXT_HOP_TYPES = [
  "instance",
  "network_interface",
  "network_gateway",
  "ip_string",
  "url",
] as const;
export type NextHopType = (typeof NEXT_HOP_TYPES)[number];
/** Update cannot switch a route to `url` (spec 4.4). */
export const UPDATE_NEXT_HOP_TYPES = NEXT_HOP_TYPES.filter((t) => t !== "url");
const HREF_NEXT_HOP_TYPES: readonly string[] = ["instance", "network_interface", "network_gateway"];

const str = (extra: Partial<MemberRule> = {}): MemberRule => ({ type: "string", ...extra });
const req = (extra: Partial<MemberRule> = {}): MemberRule => ({ type: "string", required: true, ...extra });

export const networkRules = {
  create: wrapperRule({
    cloud_href: req(),
    cidr_block: str({ format: cidrFormat }),
    deployment_href: str(),
    description: str({ blank: true }),
    instance_tenancy: str({ values: ["default", "dedicated"] }),
    name: str(),
  }),
  update: wrapperRule({
    deployment_href: str({ blank: true }),
    description: str({ blank: true }),
    name: str(),
    route_table_href: str(),
  }),
};

export const subnetRules = {
  create: wrapperRule({
    cidr_block: req({ format: cidrFormat }),
    network_href: req(),
    datacenter_href: str(),
    description: str({ blank: true }),
    name: str(),
  }),
  update: wrapperRule({
    cidr_block: str({ format: cidrFormat }),
    description: str({ blank: true }),
    name: str({ blank: true }),
    route_table_href: str({ blank: true }),
  }),
};

export const networkGatewayRules = {
  create: wrapperRule({
    cloud_href: req(),
    name: req(),
    type: req({ values: ["vpn", "internet"] }),
    description: str({ blank: true }),
  }),
  update: wrapperRule({
    name: str(),
    description: str({ blank: true }),
    network_href: str({ blank: true }),
  }),
};

export const routeRules = {
  create: wrapperRule({
    destination_cidr_block: req({ format: cidrFormat }),
    next_hop_type: req({ values: NEXT_HOP_TYPES }),
    route_table_href: req(),
    description: str({ blank: true }),
    next_hop_href: str(),
    next_hop_ip: str({ format: dottedQuadFormat }),
    next_hop_url: str(),
    cloud_specific_attributes: {
      type: "hash",
      members: { instance_tags: { type: "array" }, priority: { type: "integer" } },
    },
  }),
  update: wrapperRule({
    description: str({ blank: true }),
    destination_cidr_block: str({ format: cidrFormat }),
    next_hop_href: str(),
    next_hop_ip: str({ format: dottedQuadFormat }),
    next_hop_type: str({ values: UPDATE_NEXT_HOP_TYPES }),
  }),
};

export const volumeRules = {
  create: wrapperRule({
    name: req(),
    datacenter_href: str(),
    deployment_href: str(),
    description: str({ blank: true }),
    encrypted: str({ values: ["true", "false"] }),
    image_href: str(),
    iops: str({ format: digitsOnly }),
    parent_volume_snapshot_href: str(),
    placement_group_href: str(),
    size: str({ format: digitsOnly }),
    volume_type_href: str(),
  }),
  update: wrapperRule({
    name: str(),
    allowed_instance_hrefs: {
      type: "hash",
      members: { add: { type: "array", blank: true }, remove: { type: "array", blank: true } },
    },
  }),
};

export const recurringVolumeAttachmentRules = {
  create: wrapperRule({
    device: req({ format: deviceFormat }),
    runnable_href: req(),
    storage_href: req(),
    settings: { type: "string_hash", blank: true },
    volume_type_href: str(),
  }),
};

export const ipAddressRules = {
  create: wrapperRule({
    name: req(),
    deployment_href: str(),
    domain: str({ values: ["ec2_classic", "vpc"] }),
    network_href: str(),
  }),
  update: wrapperRule({
    name: req(),
    deployment_href: str({ blank: true }),
  }),
};

export const ipAddressBindingRules = {
  create: wrapperRule({
    instance_href: str(),
    server_href: str(),
    public_ip_address_href: str(),
    public_port: str({ format: portFormat }),
    private_port: str({ format: portFormat }),
    protocol: str({ values: ["UDP", "TCP"] }),
  }),
};

export const resourceGroupRules = {
  create: wrapperRule({
    cloud_href: req(),
    name: req(),
    deployment_href: str(),
    description: str({ blank: true }),
  }),
  update: wrapperRule({
    deployment_href: str({ blank: true }),
    description: str({ blank: true }),
  }),
};

/** Members of a wrapper hash that passed its rules, read as text. */
export type Members = Readonly<Record<string, unknown>>;

export function text(members: Members, key: string): string | undefined {
  return stringOf(members[key]);
}

function present(members: Members, key: string): boolean {
  return members[key] !== undefined;
}

/** The member of a next hop that goes with a type, and the two that do not. */
function nextHopMember(type: string): "next_hop_href" | "next_hop_ip" | "next_hop_url" {
  if (HREF_NEXT_HOP_TYPES.includes(type)) return "next_hop_href";
  return type === "ip_string" ? "next_hop_ip" : "next_hop_url";
}

const NEXT_HOP_MEMBERS = ["next_hop_href", "next_hop_ip", "next_hop_url"] as const;

/**
 * Route conditional rules 1-3 (spec 4.4). On create the type is always given. On update,
 * when the request names a type the rules apply to the request as on create; when it does
 * not, the route's current type decides which next-hop member may be sent, and none is required.
 */
export function checkNextHop(route: Members, currentType?: string): ParamViolation | undefined {
  const requestedType = text(route, "next_hop_type");
  const type = requestedType ?? currentType;
  if (type === undefined) return undefined;
  const wanted = nextHopMember(type);
  for (const member of NEXT_HOP_MEMBERS) {
    if (member !== wanted && present(route, member)) {
      return new ParamViolation(`route[${member}]`, `is not allowed when next_hop_type is '${type}'`);
    }
  }
  if (requestedType !== undefined && !present(route, wanted)) {
    return new ParamViolation(`route[${wanted}]`, `is required when next_hop_type is '${type}'`);
  }
  return undefined;
}

/**
 * IP address binding rules (spec 4.11): instance_href and server_href are mutually exclusive
 * and one of them names the target; without a public IP address the port-forwarding members
 * are required. `ipAddressFromPath` is the IP address of the nested path form, which stands
 * for public_ip_address_href.
 */
export function checkBinding(binding: Members, ipAddressFromPath = false): ParamViolation | undefined {
  const p = (m: string) => `ip_address_binding[${m}]`;
  if (present(binding, "instance_href") && present(binding, "server_href")) {
    return new ParamViolation(p("server_href"), `is mutually exclusive with ${p("instance_href")}`);
  }
  if (!present(binding, "instance_href") && !present(binding, "server_href")) {
    return new ParamViolation(p("instance_href"), `or ${p("server_href")} is required`);
  }
  if (!present(binding, "public_ip_address_href") && !ipAddressFromPath) {
    for (const member of ["public_port", "protocol"]) {
      if (!present(binding, member)) {
        return new ParamViolation(p(member), `is required unless ${p("public_ip_address_href")} is passed`);
      }
    }
  }
  if (present(binding, "private_port") && !present(binding, "public_port")) {
    return new ParamViolation(p("public_port"), `is required when ${p("private_port")} is passed`);
  }
  return undefined;
}

/** What a cloud allows, as far as the volume rules care. */
export interface VolumeCloudFacts {
  /** The open-source stack cloud kind does not need a datacenter. */
  readonly datacenterRequired: boolean;
  readonly supportsEncryption: boolean;
  readonly supportsIops: boolean;
}

/** Volume create conditional rules (spec 4.5). */
export function checkVolumeCreate(volume: Members, cloud: VolumeCloudFacts): ParamViolation | undefined {
  const p = (m: string) => `volume[${m}]`;
  if (present(volume, "placement_group_href") && present(volume, "parent_volume_snapshot_href")) {
    return new ParamViolation(
      p("placement_group_href"),
      `cannot be combined with ${p("parent_volume_snapshot_href")}`,
    );
  }
  if (cloud.datacenterRequired && !present(volume, "datacenter_href")) {
    return new ParamViolation(p("datacenter_href"), "is required on this cloud");
  }
  if (present(volume, "encrypted") && !cloud.supportsEncryption) {
    return new ParamViolation(p("encrypted"), "is not allowed: the cloud does not support encryption");
  }
  if (present(volume, "iops") && !cloud.supportsIops) {
    return new ParamViolation(
      p("iops"),
      "is not allowed: the cloud does not support provisioned performance",
    );
  }
  return undefined;
}

/** An href may not be both added to and removed from the allowed instances in one update. */
export function checkAllowedInstances(volume: Members): ParamViolation | undefined {
  const allowed = volume.allowed_instance_hrefs as { add?: unknown[]; remove?: unknown[] } | undefined;
  if (!allowed) return undefined;
  const removed = new Set((allowed.remove ?? []).map(String));
  const both = (allowed.add ?? []).map(String).find((href) => removed.has(href));
  return both === undefined
    ? undefined
    : new ParamViolation("volume[allowed_instance_hrefs]", `names ${both} in both [add] and [remove]`);
}
