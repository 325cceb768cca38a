/**
 * The parameter rules of spec section 4 for the network and storage resources, as data for
 * the simulator's declarative validator (validate.ts), plus the conditional rules that span
 * several members. Where the spec's "blank" column is silent, names and hrefs must not be
 * blank and descriptions may be (docs/service-api-notes.md).
 */
import { parameterError } from "../errors.ts";
import type { ParamRule } from "../validate.ts";

const OCTET = "(?:25[0-5]|2[0-4]\\d|[01]?\\d?\\d)";
const QUAD = `${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}`;

export const cidrFormat = {
  pattern: new RegExp(`^${QUAD}\\/(?:3[0-2]|[0-2]?\\d)$`),
  description: "an IPv4 CIDR block (dotted quad, slash, 1 to 2 digit prefix up to 32)",
};
export const dottedQuadFormat = { pattern: new RegExp(`^${QUAD}$`), description: "an IPv4 dotted quad" };
export const digitsFormat = { pattern: /^\d+$/, description: "digits only" };
export const deviceFormat = {
  pattern: /^\/dev\/xvd[bcefghij]$/,
  description: "/dev/xvd followed by one of b c e f g h i j",
};
export const portFormat = {
  pattern: /^(?:[1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5])$/,
  description: "a port number from 1 to 65535",
};

export const NEXT_HOP_TYPES = [
  "instance",
  "network_interface",
  "network_gateway",
  "ip_string",
  "url",
] as const;
/** Update cannot switch a route to `url` (spec 4.4). */
export const UPDATE_NEXT_HOP_TYPES = NEXT_HOP_TYPES.filter((t) => t !== "url");
export const HREF_NEXT_HOP_TYPES: readonly string[] = ["instance", "network_interface", "network_gateway"];

const str = (extra: Partial<ParamRule> = {}): ParamRule => ({ type: "String", blank: false, ...extra });
const req = (extra: Partial<ParamRule> = {}): ParamRule => str({ required: true, ...extra });
const blankable = (extra: Partial<ParamRule> = {}): ParamRule => str({ blank: true, ...extra });
const wrapper = (members: Record<string, ParamRule>): ParamRule => ({
  type: "Hash",
  required: true,
  blank: false,
  members,
});
const hrefList: ParamRule = { type: "Array", items: { type: "String", blank: false } };

export const networkRules = {
  create: wrapper({
    cloud_href: req(),
    cidr_block: str({ format: cidrFormat }),
    deployment_href: str(),
    description: blankable(),
    instance_tenancy: str({ values: ["default", "dedicated"] }),
    name: str(),
  }),
  update: wrapper({
    deployment_href: blankable(),
    description: blankable(),
    name: str(),
    route_table_href: str(),
  }),
};

export const subnetRules = {
  create: wrapper({
    cidr_block: req({ format: cidrFormat }),
    network_href: req(),
    datacenter_href: str(),
    description: blankable(),
    name: str(),
  }),
  update: wrapper({
    cidr_block: str({ format: cidrFormat }),
    description: blankable(),
    name: blankable(),
    route_table_href: blankable(),
  }),
};

export const networkGatewayRules = {
  create: wrapper({
    cloud_href: req(),
    name: req(),
    type: req({ values: ["vpn", "internet"] }),
    description: blankable(),
  }),
  update: wrapper({
    name: str(),
    description: blankable(),
    network_href: blankable(),
  }),
};

export const routeTableRules = {
  create: wrapper({
    cloud_href: req(),
    network_href: req(),
    name: req(),
    description: blankable(),
  }),
  update: wrapper({
    name: str(),
    description: blankable(),
  }),
};

export const routeRules = {
  create: wrapper({
    destination_cidr_block: req({ format: cidrFormat }),
    next_hop_type: req({ values: NEXT_HOP_TYPES }),
    route_table_href: req(),
    description: blankable(),
    next_hop_href: str(),
    next_hop_ip: str({ format: dottedQuadFormat }),
    next_hop_url: str(),
    cloud_specific_attributes: {
      type: "Hash",
      blank: false,
      members: {
        instance_tags: { type: "Array", blank: false, items: { type: "String", blank: false } },
        priority: { type: "Integer" },
      },
    },
  }),
  update: wrapper({
    description: blankable(),
    destination_cidr_block: str({ format: cidrFormat }),
    next_hop_href: str(),
    next_hop_ip: str({ format: dottedQuadFormat }),
    next_hop_type: str({ values: UPDATE_NEXT_HOP_TYPES }),
  }),
};

export const volumeRules = {
  create: wrapper({
    name: req(),
    datacenter_href: str(),
    deployment_href: str(),
    description: blankable(),
    encrypted: str({ values: ["true", "false"] }),
    image_href: str(),
    iops: str({ format: digitsFormat }),
    parent_volume_snapshot_href: str(),
    placement_group_href: str(),
    size: str({ format: digitsFormat }),
    volume_type_href: str(),
  }),
  update: wrapper({
    name: str(),
    allowed_instance_hrefs: { type: "Hash", blank: false, members: { add: hrefList, remove: hrefList } },
  }),
};

export const recurringVolumeAttachmentRules = {
  create: wrapper({
    device: req({ format: deviceFormat }),
    runnable_href: req(),
    storage_href: req(),
    // Free key/value options: any member name, String values (checked by checkSettings).
    settings: { type: "Hash", unknown: "ignore" },
    volume_type_href: str(),
  }),
};

export const ipAddressRules = {
  create: wrapper({
    name: req(),
    deployment_href: str(),
    domain: str({ values: ["ec2_classic", "vpc"] }),
    network_href: str(),
  }),
  update: wrapper({
    name: req(),
    deployment_href: blankable(),
  }),
};

export const ipAddressBindingRules = {
  create: wrapper({
    instance_href: str(),
    server_href: str(),
    public_ip_address_href: str(),
    public_port: str({ format: portFormat }),
    private_port: str({ format: portFormat }),
    protocol: str({ values: ["UDP", "TCP"] }),
  }),
};

export const resourceGroupRules = {
  create: wrapper({
    cloud_href: req(),
    name: req(),
    deployment_href: str(),
    description: blankable(),
  }),
  update: wrapper({
    deployment_href: blankable(),
    description: blankable(),
  }),
};

/** Members of a validated wrapper hash. */
export type Members = Readonly<Record<string, unknown>>;

export function text(members: Members, key: string): string | undefined {
  const value = members[key];
  return typeof value === "string" ? value : undefined;
}

function present(members: Members, key: string): boolean {
  return members[key] !== undefined;
}

/** The next-hop member that goes with a type. */
export function nextHopMember(type: string): "next_hop_href" | "next_hop_ip" | "next_hop_url" {
  if (HREF_NEXT_HOP_TYPES.includes(type)) return "next_hop_href";
  return type === "ip_string" ? "next_hop_ip" : "next_hop_url";
}

const NEXT_HOP_MEMBERS = ["next_hop_href", "next_hop_ip", "next_hop_url"] as const;

/**
 * Route conditional rules 1-3 (spec 4.4), 400 on violation. On create the type is always
 * given. On update, when the request names a type the rules apply to the request as on
 * create; when it does not, the route's current type decides which next-hop member may be
 * sent, and none is required.
 */
export function checkNextHop(route: Members, currentType?: string): void {
  const requestedType = text(route, "next_hop_type");
  const type = requestedType ?? currentType;
  if (type === undefined) return;
  const wanted = nextHopMember(type);
  for (const member of NEXT_HOP_MEMBERS) {
    if (member !== wanted && present(route, member)) {
      throw parameterError(`route[${member}] is not allowed when next_hop_type is '${type}'`);
    }
  }
  if (requestedType !== undefined && !present(route, wanted)) {
    throw parameterError(`route[${wanted}] is required when next_hop_type is '${type}'`);
  }
}

/**
 * IP address binding rules (spec 4.11): instance_href and server_href are mutually exclusive
 * and one of them names the target; without a public IP address the port-forwarding members
 * are required. `ipAddressFromPath` is the IP address of the nested path form, which stands
 * for public_ip_address_href.
 */
export function checkBinding(binding: Members, ipAddressFromPath = false): void {
  const p = (m: string) => `ip_address_binding[${m}]`;
  if (present(binding, "instance_href") && present(binding, "server_href")) {
    throw parameterError(`${p("server_href")} is mutually exclusive with ${p("instance_href")}`);
  }
  if (!present(binding, "instance_href") && !present(binding, "server_href")) {
    throw parameterError(`${p("instance_href")} or ${p("server_href")} is required`);
  }
  if (!present(binding, "public_ip_address_href") && !ipAddressFromPath) {
    for (const member of ["public_port", "protocol"]) {
      if (!present(binding, member)) {
        throw parameterError(`${p(member)} is required unless ${p("public_ip_address_href")} is passed`);
      }
    }
  }
  if (present(binding, "private_port") && !present(binding, "public_port")) {
    throw parameterError(`${p("public_port")} is required when ${p("private_port")} is passed`);
  }
}

/** What a cloud allows, as far as the volume rules care. */
export interface VolumeCloudFacts {
  /** The open-source stack cloud kind does not need a datacenter. */
  readonly datacenterRequired: boolean;
  readonly supportsEncryption: boolean;
  readonly supportsIops: boolean;
}

/** Volume create conditional rules (spec 4.5), 400 on violation. */
export function checkVolumeCreate(volume: Members, cloud: VolumeCloudFacts): void {
  const p = (m: string) => `volume[${m}]`;
  if (present(volume, "placement_group_href") && present(volume, "parent_volume_snapshot_href")) {
    throw parameterError(
      `${p("placement_group_href")} cannot be combined with ${p("parent_volume_snapshot_href")}`,
    );
  }
  if (cloud.datacenterRequired && !present(volume, "datacenter_href")) {
    throw parameterError(`${p("datacenter_href")} is required on this cloud`);
  }
  if (present(volume, "encrypted") && !cloud.supportsEncryption) {
    throw parameterError(`${p("encrypted")} is not allowed: the cloud does not support encryption`);
  }
  if (present(volume, "iops") && !cloud.supportsIops) {
    throw parameterError(`${p("iops")} is not allowed: the cloud does not support provisioned performance`);
  }
}

/** An href may not be both added to and removed from the allowed instances in one update. */
export function checkAllowedInstances(volume: Members): void {
  const allowed = volume.allowed_instance_hrefs as { add?: unknown[]; remove?: unknown[] } | undefined;
  if (!allowed) return;
  const removed = new Set((allowed.remove ?? []).map(String));
  const both = (allowed.add ?? []).map(String).find((href) => removed.has(href));
  if (both !== undefined) {
    throw parameterError(`volume[allowed_instance_hrefs] names ${both} in both [add] and [remove]`);
  }
}

/** Attachment settings are free key/value options with String values. */
export function checkSettings(attachment: Members): Record<string, string> {
  const settings = attachment.settings as Record<string, unknown> | undefined;
  const entries = Object.entries(settings ?? {}).map(([key, value]): [string, string] => {
    if (typeof value === "string") return [key, value];
    if (typeof value === "number" || typeof value === "boolean") return [key, String(value)];
    throw parameterError(`recurring_volume_attachment[settings][${key}] must be a String`);
  });
  // fromEntries defines own properties, so a key such as `__proto__` stays plain data.
  return Object.fromEntries(entries);
}
