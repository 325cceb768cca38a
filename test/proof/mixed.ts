import { managedKinds } from "../../src/kinds/index.ts";

/** One custom resource of the mixed set. */
export interface Manifest {
  kind: string;
  name: string;
  spec: Record<string, unknown>;
}

/**
 * The ConfigMap every namespace of a mixed set holds (rig.ts accountNamespace, bench/memory.ts):
 * the content its StoredScriptAttachments upload.
 */
export const SCRIPTS_CONFIG_MAP = {
  metadata: { name: "proof-scripts" },
  data: { "run.sh": "#!/bin/sh\necho proof\n" },
};

/** Roles granted to user 2 by the first units (a user holds each role once). */
const ROLES = ["observer", "actor", "designer", "library"];

/**
 * How each kind appears in one unit of the mixed set, referencing the unit's other resources by
 * name. Adding a kind = one entry here (the check below fails until it has one). An entry may
 * return nothing for some units (a Permission exists only once per role).
 */
export const UNIT: Record<string, (u: string, i: number) => Manifest[]> = {
  Deployment: (u) => [{ kind: "Deployment", name: `${u}-dep`, spec: { description: "proof" } }],
  ResourceGroup: (u) => [
    {
      kind: "ResourceGroup",
      name: `${u}-rg`,
      spec: { cloudHref: "/api/clouds/1", deploymentRef: { name: `${u}-dep` } },
    },
  ],
  Network: (u, i) => [
    {
      kind: "Network",
      name: `${u}-net`,
      spec: {
        cloudHref: "/api/clouds/1",
        cidrBlock: `10.${i % 250}.0.0/16`,
        deploymentRef: { name: `${u}-dep` },
      },
    },
  ],
  RouteTable: (u) => [{ kind: "RouteTable", name: `${u}-rtb`, spec: { networkRef: { name: `${u}-net` } } }],
  Subnet: (u, i) => [
    {
      kind: "Subnet",
      name: `${u}-sub`,
      spec: {
        networkRef: { name: `${u}-net` },
        cidrBlock: `10.${i % 250}.1.0/24`,
        datacenterHref: "/api/clouds/1/datacenters/1",
        routeTableRef: { name: `${u}-rtb` },
      },
    },
  ],
  NetworkGateway: (u) => [
    {
      kind: "NetworkGateway",
      name: `${u}-igw`,
      spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: `${u}-net` } },
    },
  ],
  Route: (u) => [
    {
      kind: "Route",
      name: `${u}-route`,
      spec: {
        routeTableRef: { name: `${u}-rtb` },
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
        nextHopGatewayRef: { name: `${u}-igw` },
      },
    },
  ],
  IpAddress: (u) => [
    {
      kind: "IpAddress",
      name: `${u}-ip`,
      spec: {
        cloudHref: "/api/clouds/1",
        domain: "vpc",
        networkRef: { name: `${u}-net` },
        deploymentRef: { name: `${u}-dep` },
      },
    },
  ],
  IpAddressBinding: (u) => [
    {
      kind: "IpAddressBinding",
      name: `${u}-ipb`,
      spec: {
        cloudHref: "/api/clouds/1",
        ipAddressRef: { name: `${u}-ip` },
        instanceHref: "/api/clouds/1/instances/1",
      },
    },
  ],
  AlertSpec: (u) => [
    {
      kind: "AlertSpec",
      name: `${u}-alert`,
      spec: {
        subjectHref: "/api/servers/1",
        file: "cpu-0/cpu-idle",
        variable: "value",
        condition: "<",
        threshold: "10",
        duration: 5,
        escalationName: "critical",
      },
    },
  ],
  Volume: (u) => [
    {
      kind: "Volume",
      name: `${u}-vol`,
      spec: {
        cloudHref: "/api/clouds/1",
        datacenterHref: "/api/clouds/1/datacenters/1",
        size: 10,
        volumeType: { name: "standard" },
        deploymentRef: { name: `${u}-dep` },
      },
    },
  ],
  RecurringVolumeAttachment: (u) => [
    {
      kind: "RecurringVolumeAttachment",
      name: `${u}-att`,
      spec: {
        cloudHref: "/api/clouds/1",
        storageRef: { name: `${u}-vol` },
        runnableHref: "/api/servers/1",
        device: "/dev/xvdb",
      },
    },
  ],
  StoredScriptAttachment: (u) => [
    {
      kind: "StoredScriptAttachment",
      name: `${u}-ssa`,
      spec: {
        storedScriptHref: "/api/stored_scripts/1",
        contentFrom: { configMapKeyRef: { name: SCRIPTS_CONFIG_MAP.metadata.name, key: "run.sh" } },
      },
    },
  ],
  Permission: (u, i) =>
    i < ROLES.length
      ? [{ kind: "Permission", name: `${u}-perm`, spec: { userHref: "/api/users/2", roleTitle: ROLES[i] } }]
      : [],
};

for (const k of managedKinds) {
  if (!UNIT[k.kind]) throw new Error(`test/proof/mixed.ts: kind ${k.kind} has no entry in UNIT`);
}

/** About `size` resources of every kind with their references (whole units; parents first). */
export function mixedSet(size: number, prefix = "u"): Manifest[] {
  const out: Manifest[] = [];
  for (let i = 0; out.length < size; i++) {
    for (const k of managedKinds) out.push(...UNIT[k.kind]!(`${prefix}${i}`, i));
  }
  return out;
}

/** Plural of each managed kind (the resource path of its custom resources). */
export const PLURAL: Record<string, string> = Object.fromEntries(managedKinds.map((k) => [k.kind, k.plural]));

/**
 * The simulator collections the managed kinds write, with what identifies one object per custom
 * resource; undefined for an object the service makes itself (a network's default route table).
 */
export const COLLECTIONS: Record<string, (o: Record<string, unknown>) => string | undefined> = {
  deployments: (o) => String(o.name),
  networks: (o) => String(o.name),
  route_tables: (o) => (o.is_default === true ? undefined : `${o.network_id}|${o.name}`),
  subnets: (o) => String(o.name),
  network_gateways: (o) => String(o.name),
  resource_groups: (o) => String(o.name),
  ip_addresses: (o) => String(o.name),
  ip_address_bindings: (o) => `${o.ip_address_id}|${o.instance_href}|${o.public_port}`,
  alert_specs: (o) => String(o.name),
  routes: (o) => `${o.route_table_id ?? ""}|${o.destination_cidr_block ?? ""}`,
  volumes: (o) => String(o.name),
  recurring_volume_attachments: (o) => `${o.storage_href}|${o.runnable_href}|${o.device}`,
  permissions: (o) => `${o.user_id}|${o.role_title}`,
  stored_script_attachments: (o) => `${o.stored_script_id}|${o.filename}`,
};
