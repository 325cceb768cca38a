import * as z from "zod";
import { SimError } from "../errors.ts";
import { matchHref } from "../hrefs.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access, type PermissionRecord, type UserRecord } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { seedAccounts, seedUsers } from "../seed-data.ts";
import type { Store } from "../store.ts";
import { formats } from "../validate.ts";

/**
 * Accounts and users (their records and representations), login (`POST /api/session`,
 * `/api/sessions`) and the OAuth 2.0 refresh-token grant (`/api/oauth2`). What a logged-in
 * client reads about them (the session, its accounts, users) is in sessions.ts.
 */

export const accountSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    /** The user who owns the account (its `owner` link). */
    owner_id: seedId.default("1"),
    created_at: seedTimestamp.default(SEED_TIME_MS),
    updated_at: seedTimestamp.default(SEED_TIME_MS),
  })
  .strict();
export type AccountRecord = z.output<typeof accountSchema>;

export const userSchema = z
  .object({
    id: seedId,
    email: z.string().min(1),
    password: z.string(),
    first_name: z.string().default(""),
    last_name: z.string().default(""),
    company: z.string().default(""),
    login_name: z.string().nullable().default(null),
    phone: z.string().default(""),
    timezone_name: z.string().default("UTC"),
    principal_uid: z.string().nullable().default(null),
    refresh_token: z.string().min(1).nullable().default(null),
    settings: z.array(z.enum(["premium_deployments", "monitoring_api"])).default([]),
    created_at: seedTimestamp.default(SEED_TIME_MS),
    updated_at: seedTimestamp.default(SEED_TIME_MS),
  })
  .strict();

export const userHref = (id: string) => `/api/users/${id}`;
export const accountHref = (id: string) => `/api/accounts/${id}`;

/**
 * A user as the real media type declares it. Records inserted by tests may lack the newer
 * fields; they read as their defaults. No `identity_provider` link: single sign-on is not
 * modelled.
 */
export function userRepresentation(user: UserRecord): Representation {
  return {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    login_name: user.login_name ?? null,
    company: user.company,
    phone: user.phone ?? "",
    timezone_name: user.timezone_name ?? "UTC",
    principal_uid: user.principal_uid ?? null,
    created_at: formatTimestamp(user.created_at ?? SEED_TIME_MS),
    updated_at: formatTimestamp(user.updated_at ?? SEED_TIME_MS),
    links: [link("self", userHref(user.id))],
    actions: [],
  };
}

/**
 * An account: `products` names what the account runs (the simulator serves one product),
 * `permissions` the role titles `userId` holds in it. No `cluster` link: clusters are not
 * modelled (the wrong-region host stands for the other one).
 */
export function accountRepresentation(store: Store, account: AccountRecord, userId: string): Representation {
  return {
    name: account.name,
    created_at: formatTimestamp(account.created_at),
    updated_at: formatTimestamp(account.updated_at),
    products: ["Cloud Management"],
    permissions: store
      .collection<PermissionRecord>("permissions")
      .filter((p) => p.user_id === userId)
      .map((p) => p.role_title),
    links: [link("self", accountHref(account.id)), link("owner", userHref(account.owner_id))],
  };
}

export function badCredentials(message: string): SimError {
  return new SimError(401, "AuthenticationError", message);
}

export function stringParam(value: unknown, name: string, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new SimError(400, "ParameterError", `${name} is required`);
    return undefined;
  }
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") throw new SimError(400, "ParameterError", `${name} must be a String`);
  if (required && value === "") throw new SimError(400, "ParameterError", `${name} must not be blank`);
  return value;
}

const noCache = {
  "cache-control": "no-store, no-cache, must-revalidate",
  pragma: "no-cache",
  expires: "0",
};

export const accountsResource = defineResource({
  name: "accounts",
  collections: { accounts: accountSchema, users: userSchema },
  defaultSeed: () => ({ ...seedAccounts(), ...seedUsers() }),
  register(sim) {
    const users = () => sim.store.collection<UserRecord>("users");
    const accounts = () => sim.store.collection<AccountRecord>("accounts");

    for (const path of ["/api/session", "/api/sessions"]) {
      sim.route({
        method: "POST",
        path,
        access: access.public,
        versionRequired: true,
        handler(ctx) {
          const email = stringParam(ctx.params.email, "email", true)!;
          const password = stringParam(ctx.params.password, "password", true)!;
          const accountHrefParam = stringParam(ctx.params.account_href, "account_href", true)!;
          const ids = matchHref(accountHrefParam, "/api/accounts/:id");
          if (!ids || !formats.digits.pattern.test(ids.id!)) {
            throw new SimError(
              400,
              "ParameterError",
              `account_href must be /api/accounts/<account_id> (got '${accountHrefParam}')`,
            );
          }
          const user = users().find((u) => u.email.toLowerCase() === email.toLowerCase());
          if (!user || user.password !== password) throw badCredentials("invalid email or password");
          if (!accounts().get(ids.id!)) throw badCredentials(`user has no access to account ${ids.id}`);
          const cookies = sim.auth.login(user.id, ids.id!);
          return { status: 204, headers: { "set-cookie": cookies }, body: "" };
        },
      });
    }

    sim.route({
      method: "POST",
      path: "/api/oauth2",
      access: access.public,
      versionRequired: true,
      handler(ctx) {
        const grant = stringParam(ctx.params.grant_type, "grant_type", true);
        if (grant !== "refresh_token") {
          throw new SimError(
            400,
            "ParameterError",
            `grant_type must be one of refresh_token (got '${grant}')`,
          );
        }
        const accountId = stringParam(ctx.params.account_id, "account_id", false);
        if (accountId !== undefined) {
          if (!formats.digits.pattern.test(accountId)) {
            throw new SimError(400, "ParameterError", `account_id must be an Integer (got '${accountId}')`);
          }
          if (!accounts().get(accountId)) {
            // The account lives in another cluster: 301 to that cluster's token endpoint.
            return {
              status: 301,
              headers: {
                location: `${sim.urls.region}/api/oauth2/`,
                "content-type": "text/plain; charset=utf-8",
              },
              body: `Account ${accountId} is hosted elsewhere`,
            };
          }
        }
        const agent = stringParam(ctx.params.agent_link_version, "agent_link_version", false);
        if (agent !== undefined && !/^\d+\.\d+(\.\d+)*$/.test(agent)) {
          throw new SimError(
            400,
            "ParameterError",
            `agent_link_version must be digits and dots like 1.2 or 1.2.3 (got '${agent}')`,
          );
        }
        const rs = stringParam(ctx.params.r_s_version, "r_s_version", false);
        if (rs !== undefined && !/^\d+$/.test(rs)) {
          throw new SimError(400, "ParameterError", `r_s_version must be an Integer (got '${rs}')`);
        }
        const token = stringParam(ctx.params.refresh_token, "refresh_token", false);
        const user = token ? users().find((u) => u.refresh_token === token) : undefined;
        if (!user) throw badCredentials("refresh_token is invalid or OAuth is disabled");
        const account = accountId ?? accounts().values().next().value?.id ?? "1";
        const issued = sim.auth.issueAccessToken(user.id, account);
        return ctx.raw(
          200,
          "application/json; charset=utf-8",
          JSON.stringify({ access_token: issued.token, expires_in: issued.expiresIn, token_type: "bearer" }),
          noCache,
        );
      },
    });
  },
});
