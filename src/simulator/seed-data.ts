import { ROLE_TITLES } from "./roles.ts";
import { SEED_TIME_MS } from "./seed.ts";

/**
 * The default seed of the SIM-CORE collections (deterministic; documented in
 * docs/simulator.md). Each resource module contributes its part through `defaultSeed`.
 */

export const SEED_CREDENTIALS = {
  accountId: "1",
  admin: { email: "admin@example.com", password: "password" },
  user2: { email: "user2@example.com", password: "password" },
  refreshToken: "dev-refresh-token",
} as const;

export const seedAccounts = () => ({ accounts: [{ id: "1", name: "Simulated account" }] });

export const seedUsers = () => ({
  users: [
    {
      id: "1",
      email: SEED_CREDENTIALS.admin.email,
      password: SEED_CREDENTIALS.admin.password,
      first_name: "Ada",
      last_name: "Admin",
      company: "Example",
      refresh_token: SEED_CREDENTIALS.refreshToken,
      settings: ["premium_deployments", "monitoring_api"],
    },
    {
      id: "2",
      email: SEED_CREDENTIALS.user2.email,
      password: SEED_CREDENTIALS.user2.password,
      first_name: "Bob",
      last_name: "Second",
      company: "Example",
      refresh_token: null,
      settings: [],
    },
  ],
});

/** User 1 holds every role (observer first); user 2 holds none. */
export const seedPermissions = () => ({
  permissions: ["observer", ...ROLE_TITLES.filter((r) => r !== "observer")].map((role_title) => ({
    id: `1-${role_title}`,
    user_id: "1",
    role_title,
    created_at: SEED_TIME_MS,
  })),
});

export const seedDeployments = () => ({
  deployments: [
    {
      id: "1",
      name: "Production",
      description: "Seeded deployment with servers and inputs",
      server_tag_scope: "deployment",
      locked: false,
      lock_user_id: null,
      resource_group_href: null,
      inputs: [
        { name: "APP_ENV", value: "text:production" },
        { name: "DB_PASSWORD", value: "cred:DB_PASSWORD" },
        { name: "LOG_LEVEL", value: "blank" },
        { name: "FEATURE_FLAGS", value: "ignore" },
        { name: "HOSTS", value: 'array:["text:a.example.com","text:b.example.com"]' },
      ],
      created_at: SEED_TIME_MS,
      updated_at: SEED_TIME_MS,
    },
    {
      id: "2",
      name: "Staging",
      description: null,
      server_tag_scope: "account",
      locked: true,
      lock_user_id: "1",
      resource_group_href: null,
      inputs: [],
      created_at: SEED_TIME_MS,
      updated_at: SEED_TIME_MS,
    },
  ],
});

const allCapabilities = {
  supports_networks: true,
  supports_route_tables: true,
  supports_volume_attachments: true,
  supports_volume_snapshots: true,
};

/** Clouds 1 (every capability) and 2 (no networks, no route tables) and what they offer. */
export const seedCloudCatalog = () => ({
  clouds: [
    {
      id: "1",
      name: "EC2 us-east-1",
      display_name: "AWS US-East",
      description: "Simulated public cloud with every capability",
      cloud_type: "amazon",
      capabilities: allCapabilities,
    },
    {
      id: "2",
      name: "OpenStack Lab",
      display_name: "Lab OpenStack",
      description: "Simulated private cloud without networks or route tables",
      cloud_type: "open_stack_v3",
      capabilities: { ...allCapabilities, supports_networks: false, supports_route_tables: false },
    },
  ],
  datacenters: [
    { id: "1", cloud_id: "1", name: "us-east-1a", resource_uid: "us-east-1a", description: "Zone A" },
    { id: "2", cloud_id: "1", name: "us-east-1b", resource_uid: "us-east-1b", description: "Zone B" },
    { id: "3", cloud_id: "2", name: "nova", resource_uid: "nova", description: "Default zone" },
  ],
  instance_types: [
    {
      id: "1",
      cloud_id: "1",
      resource_uid: "m5.large",
      name: "m5.large",
      description: "General purpose, 2 vCPU, 8 GiB",
      memory: "8192",
      cpu_speed: "3.1 GHz",
      cpu_count: 2,
      cpu_architecture: "x86_64",
      local_disks: 0,
      local_disk_size: 0,
      deleted: false,
    },
    {
      id: "2",
      cloud_id: "1",
      resource_uid: "m5.xlarge",
      name: "m5.xlarge",
      description: "General purpose, 4 vCPU, 16 GiB",
      memory: "16384",
      cpu_speed: "3.1 GHz",
      cpu_count: 4,
      cpu_architecture: "x86_64",
      local_disks: 0,
      local_disk_size: 0,
      deleted: false,
    },
    {
      id: "3",
      cloud_id: "1",
      resource_uid: "m1.small",
      name: "m1.small",
      description: "Previous generation (deleted)",
      memory: "1740",
      cpu_speed: null,
      cpu_count: 1,
      cpu_architecture: "i386",
      local_disks: 1,
      local_disk_size: 160,
      deleted: true,
    },
    {
      id: "4",
      cloud_id: "2",
      resource_uid: "flavor-small",
      name: "m1.small",
      description: "Small flavor",
      memory: "2048",
      cpu_speed: null,
      cpu_count: 1,
      cpu_architecture: null,
      local_disks: 1,
      local_disk_size: 20,
      deleted: false,
    },
  ],
  volume_types: [
    {
      id: "1",
      cloud_id: "1",
      name: "standard",
      resource_uid: "standard",
      size: "1",
      description: "Magnetic",
    },
    {
      id: "2",
      cloud_id: "1",
      name: "io1",
      resource_uid: "io1",
      size: "4",
      description: "Provisioned IOPS SSD",
    },
    { id: "3", cloud_id: "2", name: "ssd", resource_uid: "lab-ssd", size: "5", description: "Lab SSD" },
  ],
  images: [
    {
      id: "1",
      cloud_id: "1",
      name: "ubuntu-24.04",
      resource_uid: "ami-0a1b2c3d",
      description: "Ubuntu 24.04 LTS",
    },
    { id: "2", cloud_id: "1", name: "rhel-9", resource_uid: "ami-9f8e7d6c", description: "RHEL 9" },
    { id: "3", cloud_id: "2", name: "debian-12", resource_uid: "img-debian-12", description: "Debian 12" },
  ],
});

/**
 * Server templates, servers, server arrays, their current and next instances, volume
 * snapshots and stored scripts. Current instances are `operational`, next ones `inactive`.
 */
export const seedLinked = () => ({
  server_templates: [
    {
      id: "1",
      name: "Base Linux",
      description: "Base server template",
      inputs: [
        { name: "APP_ENV", value: "text:development" },
        { name: "NTP_SERVERS", value: 'array:["text:0.pool.ntp.org","text:1.pool.ntp.org"]' },
        { name: "SYSLOG_HOST", value: "blank" },
      ],
    },
    {
      id: "2",
      name: "App Server",
      description: "Application server template",
      inputs: [{ name: "APP_PORT", value: "text:8080" }],
    },
  ],
  servers: [
    {
      id: "1",
      name: "app-1",
      cloud_id: "1",
      deployment_id: "1",
      server_template_id: "1",
      current_instance_id: "1",
      next_instance_id: "3",
    },
    {
      id: "2",
      name: "app-2 (stopped)",
      cloud_id: "1",
      deployment_id: "1",
      server_template_id: "2",
      current_instance_id: null,
      next_instance_id: "4",
    },
  ],
  server_arrays: [
    {
      id: "1",
      name: "workers",
      cloud_id: "1",
      deployment_id: "1",
      server_template_id: "2",
      next_instance_id: "6",
    },
  ],
  instances: [
    instance("1", "1", "app-1", "operational", false, {
      server_id: "1",
      server_template_id: "1",
      datacenter_id: "1",
    }),
    instance("2", "1", "workers #1", "operational", false, {
      server_array_id: "1",
      server_template_id: "2",
      datacenter_id: "1",
    }),
    instance("3", "1", "app-1 (next)", "inactive", true, {
      server_id: "1",
      server_template_id: "1",
      datacenter_id: "1",
    }),
    instance("4", "1", "app-2 (next)", "inactive", true, {
      server_id: "2",
      server_template_id: "2",
      datacenter_id: "2",
    }),
    instance("5", "1", "workers #2", "operational", false, {
      server_array_id: "1",
      server_template_id: "2",
      datacenter_id: "2",
    }),
    instance("6", "1", "workers (next)", "inactive", true, { server_array_id: "1", server_template_id: "2" }),
    instance("7", "2", "lab-vm", "operational", false, { datacenter_id: "3", deployment_id: null }),
  ],
  volume_snapshots: [
    {
      id: "1",
      cloud_id: "1",
      name: "base-data-snap",
      resource_uid: "snap-0001",
      description: "",
      state: "available",
      size: 10,
      parent_volume_id: "1",
    },
    {
      id: "2",
      cloud_id: "1",
      name: "db-backup",
      resource_uid: "snap-0002",
      description: "",
      state: "available",
      size: 50,
      deployment_id: "1",
    },
    {
      id: "3",
      cloud_id: "2",
      name: "lab-snap",
      resource_uid: "lab-snap-1",
      description: "",
      state: "available",
      size: 5,
    },
  ],
  stored_scripts: [
    {
      id: "1",
      name: "deploy.sh",
      description: "Deploys the application",
      source: '#!/bin/sh\necho "deploying $APP_ENV"\n',
      inputs: [{ name: "APP_ENV", value: "text:production" }],
    },
    {
      id: "2",
      name: "backup.sh",
      description: "Backs up the database",
      source: "#!/bin/sh\npg_dump > /var/backups/db.sql\n",
    },
  ],
});

function instance(
  id: string,
  cloudId: string,
  name: string,
  state: string,
  isNext: boolean,
  links: {
    server_id?: string;
    server_array_id?: string;
    server_template_id?: string;
    datacenter_id?: string;
    deployment_id?: string | null;
  },
) {
  return {
    id,
    cloud_id: cloudId,
    name,
    resource_uid: `i-${id.padStart(8, "0")}`,
    state,
    is_next: isNext,
    server_id: links.server_id ?? null,
    server_array_id: links.server_array_id ?? null,
    server_template_id: links.server_template_id ?? null,
    // A template's instances boot its multi-cloud image (seeded one per template, of its id).
    multi_cloud_image_id: links.server_template_id ?? null,
    deployment_id: links.deployment_id === undefined ? (cloudId === "1" ? "1" : null) : links.deployment_id,
    datacenter_id: links.datacenter_id ?? null,
    // The cloud's first image and instance type, and its one SSH key.
    image_id: cloudId === "1" ? "1" : "3",
    instance_type_id: cloudId === "1" ? "1" : "4",
    ssh_key_id: cloudId,
    inputs:
      state === "operational"
        ? [
            { name: "APP_ENV", value: "text:production" },
            { name: "INSTANCE_ROLE", value: "blank" },
          ]
        : [],
  };
}
