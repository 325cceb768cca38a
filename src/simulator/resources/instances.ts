/**
 * The instance representation (beyond the spec; shape from the reference data and the
 * recorded real answers) in the six views the real routes accept. `default` carries what a
 * recorded real answer carries (as `current_instances` lists an instance and a server embeds
 * it); the rest is the simulator's choice (the reference lists the views, not their contents):
 * `tiny` only names the instance, `extended` adds the rest of its description (DNS names,
 * platform, the rels to its image, type, key, datacenter and alert specs), its security groups
 * and subnets, `full` (and `full_inputs_2_0`, inputs in the 2.0 notation) its inputs,
 * monitoring and user data, and `sensitive` everything, the admin password included.
 */
import type { FilterSpec } from "../filters.ts";
import { formatTimestamp, type Link, link, type Representation } from "../representation.ts";
import type { Store } from "../store.ts";
import { cloudHref } from "./clouds.ts";
import { renderInputs } from "./deployments.ts";
import { hrefs, type InstanceRecord } from "./linked-records.ts";

export const INSTANCE_VIEWS = [
  "default",
  "extended",
  "full",
  "full_inputs_2_0",
  "tiny",
  "sensitive",
] as const;
export type InstanceView = (typeof INSTANCE_VIEWS)[number];

/**
 * The filters of the instances index (both its routes: a cloud's instances and an array's
 * current ones). A real client lists a deployment's running instances with `deployment_href`
 * and `state` together.
 */
export const INSTANCE_FILTERS: FilterSpec<InstanceRecord> = {
  name: { partial: true, get: (i) => i.name },
  resource_uid: { partial: false, get: (i) => i.resource_uid },
  state: { partial: false, get: (i) => i.state },
  deployment_href: {
    partial: false,
    get: (i) => (i.deployment_id === null ? null : hrefs.deployment(i.deployment_id)),
  },
};

const optional = (rel: string, id: string | null, href: (id: string) => string): Link[] =>
  id === null ? [] : [link(rel, href(id))];

/**
 * Links in the recorded order; the views past `default` add the rels it lacks where the
 * reference declares them. Ramdisk and kernel images and placement groups are not modelled.
 */
function instanceLinks(i: InstanceRecord, view: InstanceView): Link[] {
  const href = hrefs.instance(i.cloud_id, i.id);
  const inCloud = (make: (cloudId: string, id: string) => string) => (id: string) => make(i.cloud_id, id);
  const extended = view !== "default" && view !== "tiny";
  return [
    link("self", href),
    link("cloud", cloudHref(i.cloud_id)),
    ...optional("deployment", i.deployment_id, hrefs.deployment),
    ...optional("server_template", i.server_template_id, hrefs.serverTemplate),
    ...optional("multi_cloud_image", i.multi_cloud_image_id, hrefs.multiCloudImage),
    ...(extended
      ? [
          ...optional("image", i.image_id, inCloud(hrefs.image)),
          ...optional("instance_type", i.instance_type_id, inCloud(hrefs.instanceType)),
          ...optional("ssh_key", i.ssh_key_id, inCloud(hrefs.sshKey)),
          ...optional("datacenter", i.datacenter_id, inCloud(hrefs.datacenter)),
        ]
      : []),
    ...optional("parent", i.server_id, hrefs.server),
    ...optional("parent", i.server_array_id, hrefs.serverArray),
    link("volume_attachments", `${href}/volume_attachments`),
    link("inputs", `${href}/inputs`),
    link("monitoring_metrics", `${href}/monitoring_metrics`),
    link("alerts", `${href}/alerts`),
    ...(extended ? [link("alert_specs", `${href}/alert_specs`)] : []),
  ];
}

/** A security group or subnet as an instance embeds it: name, uid and its self link. */
function embedded(o: Record<string, unknown>, self: string): Representation {
  return { name: o.name ?? null, resource_uid: o.resource_uid ?? null, links: [link("self", self)] };
}

/** Addresses exist while the instance runs: derived from its id, in documentation ranges. */
function addresses(i: InstanceRecord) {
  const running = i.state === "operational";
  const n = Number(i.id) % 250;
  return {
    public_ip_addresses: running ? [`203.0.113.${n}`] : [],
    private_ip_addresses: running ? [`10.${Number(i.cloud_id) % 250}.0.${n}`] : [],
  };
}

/** DNS names, as the addresses: while the instance runs, derived from its uid. */
function dnsNames(i: InstanceRecord) {
  const running = i.state === "operational";
  return {
    public_dns_names: running ? [`${i.resource_uid}.public.example.com`] : [],
    private_dns_names: running ? [`${i.resource_uid}.internal`] : [],
  };
}

export function instanceRepresentation(
  store: Store,
  i: InstanceRecord,
  view: InstanceView = "default",
): Representation {
  const links = instanceLinks(i, view);
  if (view === "tiny") return { name: i.name, resource_uid: i.resource_uid, state: i.state, links };
  const rep: Representation = {
    name: i.name,
    created_at: formatTimestamp(i.created_at),
    updated_at: formatTimestamp(i.updated_at),
    resource_uid: i.resource_uid,
    state: i.state,
    links,
    actions: [],
    ...addresses(i),
    pricing_type: "fixed",
    locked: false,
    associate_public_ip_address: true,
    ip_forwarding_enabled: false,
    cloud_specific_attributes: null,
  };
  if (view === "default") return rep;
  Object.assign(rep, {
    description: i.description,
    terminated_at: null,
    os_platform: i.os_platform,
    ...dnsNames(i),
    rs_provisioned: true,
  });
  // Security groups are not assigned per instance: an instance is in its cloud's first group.
  const group = store
    .collection<{ id: string; cloud_id: string; [field: string]: unknown }>("security_groups")
    .find((g) => g.cloud_id === i.cloud_id);
  rep.security_groups = group
    ? [embedded(group, `${cloudHref(i.cloud_id)}/security_groups/${group.id}`)]
    : [];
  const self = hrefs.instance(i.cloud_id, i.id);
  rep.subnets = store
    .collection<{ id: string; cloud_id: string; instance_href: string | null; [field: string]: unknown }>(
      "subnets",
    )
    .filter((s) => s.instance_href === self)
    .map((s) => embedded(s, `${cloudHref(s.cloud_id)}/subnets/${s.id}`));
  if (view === "extended") return rep;
  const running = i.state === "operational";
  rep.inputs = renderInputs(i.inputs, view === "full_inputs_2_0" ? "inputs_2_0" : "inputs");
  rep.monitoring_server = running ? "tss.monitoring.example.com" : null;
  rep.monitoring_collector_http = running ? "tss.monitoring.example.com:80" : null;
  rep.monitoring_collector_udp = running ? "tss.monitoring.example.com:3011" : null;
  rep.monitoring_id = running ? i.resource_uid : null;
  rep.user_data = i.user_data;
  // Where the instance's inputs come from: its server template, then its deployment.
  rep.inherited_sources = [
    ...optional("server_template", i.server_template_id, hrefs.serverTemplate),
    ...optional("deployment", i.deployment_id, hrefs.deployment),
  ].map((l) => l.href);
  if (view === "sensitive") rep.admin_password = null;
  return rep;
}
