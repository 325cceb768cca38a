import type { Rules } from "./checker.ts";
import { INSTANCE_DEFAULT } from "./recorded.ts";

/**
 * What each view carries where the reference data is silent (docs/service-api-notes.md, "Real
 * shapes"): the recorded real answers' facts (`recorded.ts`; the conformance test holds these
 * rules to them), else the simulator's choices: which declared attributes and rels each view
 * leaves out, which declared rels point at objects the simulator does not model, and which
 * attributes embed other representations. Everything else the reference declares must be sent.
 */

const ALL: readonly string[] = [];

/** Instance views: tiny is the least, sensitive the most (it adds the admin password). */
const INSTANCE_FULL_ONLY = [
  "inputs",
  "monitoring_server",
  "monitoring_collector_http",
  "monitoring_collector_udp",
  "monitoring_id",
  "user_data",
  "inherited_sources",
];
/** What the recorded default view lacks, the richer views carry (with the rels it lacks). */
const INSTANCE_EXTENDED_ONLY = [
  "description",
  "terminated_at",
  "os_platform",
  "public_dns_names",
  "private_dns_names",
  "rs_provisioned",
  "security_groups",
  "subnets",
];
const INSTANCE_TINY = ["name", "resource_uid", "state", "links"];
/** The instance media type's attributes (the reference's list), to derive the tiny view. */
const INSTANCE_ATTRIBUTES = [
  "name",
  "description",
  "created_at",
  "updated_at",
  "terminated_at",
  "resource_uid",
  "os_platform",
  "state",
  "links",
  "actions",
  "public_ip_addresses",
  "private_ip_addresses",
  "public_dns_names",
  "private_dns_names",
  "inputs",
  "monitoring_server",
  "monitoring_collector_http",
  "monitoring_collector_udp",
  "monitoring_id",
  "user_data",
  "security_groups",
  "subnets",
  "inherited_sources",
  "pricing_type",
  "locked",
  "associate_public_ip_address",
  "ip_forwarding_enabled",
  "cloud_specific_attributes",
  "admin_password",
  "rs_provisioned",
];

/**
 * Instance rels in the recorded order; the rels the default view lacks come where the
 * reference declares them relative to their neighbours (images after the multi-cloud image,
 * alert specs after alerts).
 */
const INSTANCE_LINK_ORDER = [
  "self",
  "cloud",
  "deployment",
  "server_template",
  "multi_cloud_image",
  "image",
  "ramdisk_image",
  "kernel_image",
  "instance_type",
  "ssh_key",
  "datacenter",
  "placement_group",
  "parent",
  "volume_attachments",
  "inputs",
  "monitoring_metrics",
  "lock_user",
  "alerts",
  "alert_specs",
];

const notModelled = "the simulator does not model it";
const unrecorded = "no recorded real answer carries it, in any view";

export const RULES: Rules = {
  Sessions: {
    views: { default: ALL, whoami: ALL },
    unservedLinks: Object.fromEntries(
      [
        "cloud_flow_processes",
        "account_groups",
        "accounts",
        "alerts",
        "backups",
        "child_accounts",
        "cloud_accounts",
        "cookbooks",
        "credentials",
        "identity_providers",
        "multi_cloud_images",
        "network_option_group_attachments",
        "network_option_groups",
        "placement_groups",
        "preferences",
        "publication_lineages",
        "publications",
        "repositories",
        "security_group_rules",
        "server_template_multi_cloud_images",
        "tags",
      ]
        .map((rel) => [rel, "a root resource the simulator does not serve"])
        .concat([["instance", "only an instance's own session has one"]]),
    ),
  },
  Deployments: { views: { default: ["inputs"], inputs: ALL, inputs_2_0: ALL } },
  Inputs: { views: { default: ALL, inputs_2_0: ALL } },
  Clouds: { views: { default: ["capabilities"], extended: ALL } },
  InstanceTypes: { views: { default: ALL } },
  VolumeTypes: { views: { default: ALL } },
  Datacenters: { views: { default: ALL } },
  Volumes: {
    views: { default: ALL, extended: ALL },
    keptAsGiven: { placement_group: "placement groups are kept as the client gave them" },
    nested: { volume_type: { resource: "VolumeTypes", view: "default" } },
  },
  VolumeSnapshots: { views: { default: ALL } },
  RecurringVolumeAttachments: { views: { default: ALL } },
  Networks: { views: { default: ALL } },
  Subnets: { views: { default: ALL } },
  RouteTables: {
    views: { default: ["routes"], extended: ALL },
    nested: { routes: { resource: "Routes", view: "default", list: true } },
  },
  Routes: { views: { default: ALL } },
  NetworkGateways: { views: { default: ALL } },
  IpAddresses: { views: { default: ALL } },
  IpAddressBindings: { views: { default: ALL } },
  AlertSpecs: { views: { default: ALL } },
  AuditEntries: { views: { default: ALL } },
  StoredScripts: { views: { default: ALL, inputs_2_0: ALL } },
  StoredScriptAttachments: { views: { default: ALL } },
  Permissions: { views: { default: ALL } },
  ResourceGroups: { views: { default: ALL } },
  MonitoringMetrics: { views: { default: ALL } },
  Servers: {
    views: { default: ["current_instance", "next_instance"], instance_detail: ALL },
    unservedAttributes: { optimized: unrecorded },
    nested: {
      current_instance: { resource: "Instances", view: "default" },
      next_instance: { resource: "Instances", view: "default" },
    },
  },
  ServerArrays: {
    views: { default: ["current_instances", "next_instance"], instance_detail: ALL },
    unservedAttributes: { optimized: unrecorded },
    nested: {
      current_instances: { resource: "Instances", view: "default", list: true },
      next_instance: { resource: "Instances", view: "default" },
    },
  },
  Instances: {
    views: {
      tiny: INSTANCE_ATTRIBUTES.filter((a) => !INSTANCE_TINY.includes(a)),
      default: [...INSTANCE_EXTENDED_ONLY, ...INSTANCE_FULL_ONLY, "admin_password"],
      extended: [...INSTANCE_FULL_ONLY, "admin_password"],
      full: ["admin_password"],
      full_inputs_2_0: ["admin_password"],
      sensitive: ALL,
    },
    viewLinks: { tiny: INSTANCE_DEFAULT.links, default: INSTANCE_DEFAULT.links },
    linkOrder: INSTANCE_LINK_ORDER,
    unservedLinks: {
      ramdisk_image: notModelled,
      kernel_image: notModelled,
      placement_group: notModelled,
      lock_user: "instances are never locked in the simulator",
    },
  },
  ServerTemplates: {
    views: { default: ["inputs"], inputs: ALL, inputs_2_0: ALL },
    unservedLinks: {
      multi_cloud_images: notModelled,
      default_multi_cloud_image: notModelled,
      publication: notModelled,
      runnable_bindings: notModelled,
      cookbook_attachments: notModelled,
    },
  },
  Accounts: { views: { default: ALL, extended: ALL }, unservedLinks: { cluster: notModelled } },
  Users: { views: { default: ALL }, unservedLinks: { identity_provider: notModelled } },
};
