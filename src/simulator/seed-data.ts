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
      resource_group_href: null,
      inputs: [],
      created_at: SEED_TIME_MS,
      updated_at: SEED_TIME_MS,
    },
  ],
});
