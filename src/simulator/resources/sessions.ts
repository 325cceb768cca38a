/**
 * What a client reads about its own login (issue 20): the session resource (`GET
 * /api/session`, and `/api/sessions` with a view: a message and links to the root resources;
 * without a view `/api/sessions` answers an empty 200, as a recorded real answer after a login
 * does), the accounts a user can use (`GET /api/sessions/accounts`, also outside a session with
 * email and password), users (`/api/users`, read-only), and the health check (`GET
 * /api/health-check/`).
 */
import type { RequestContext } from "../context.ts";
import { SimError } from "../errors.ts";
import { link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access, type UserRecord } from "../roles.ts";
import {
  type AccountRecord,
  accountHref,
  accountRepresentation,
  badCredentials,
  stringParam,
  userHref,
  userRepresentation,
} from "./accounts.ts";

/**
 * The root collections the simulator serves, under the rels the real session declares, in the
 * reference's order (`self`, then `user` and `account` are placed by sessionRepresentation).
 * Rels of root resources the simulator does not serve (tags, credentials, ...) are left out.
 */
const ROOTS_BEFORE_SELF = [
  "alert_specs",
  "audit_entries",
  "clouds",
  "deployments",
  "network_gateways",
  "networks",
  "permissions",
  "stored_scripts",
  "route_tables",
  "routes",
];
const ROOTS_AFTER_SELF = ["server_arrays", "server_templates", "servers", "users"];

export const SESSION_MESSAGE = "You have successfully logged into the API.";

export function sessionRepresentation(userId: string, accountId: string, view: "default" | "whoami") {
  const who = [link("user", userHref(userId)), link("account", accountHref(accountId))];
  const links =
    view === "whoami"
      ? who
      : [
          ...ROOTS_BEFORE_SELF.map((rel) => link(rel, `/api/${rel}`)),
          link("self", "/api/session"),
          ...ROOTS_AFTER_SELF.map((rel) => link(rel, `/api/${rel}`)),
          ...who,
        ];
  return { message: SESSION_MESSAGE, links, actions: [] } satisfies Representation;
}

/**
 * The user an accounts listing is for: the one `email`/`password` name (401 when wrong),
 * else the caller's session or token (403 `Session cookie is expired or invalid` without one).
 */
function accountsUser(ctx: RequestContext, authenticate: (ctx: RequestContext) => string): string {
  const email = stringParam(ctx.params.email, "email", false);
  const password = stringParam(ctx.params.password, "password", false);
  if (email === undefined && password === undefined) return authenticate(ctx);
  if (email === undefined || password === undefined) {
    const missing = email === undefined ? "email" : "password";
    throw new SimError(
      400,
      "ParameterError",
      `${missing} is required when ${missing === "email" ? "password" : "email"} is given`,
    );
  }
  const user = ctx.store
    .collection<UserRecord>("users")
    .find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (!user || user.password !== password) throw badCredentials("invalid email or password");
  return user.id;
}

export const sessionsResource = defineResource({
  name: "sessions",
  collections: {},
  register(sim) {
    const anyUser = access.anyOf();
    for (const base of ["/api/session", "/api/sessions"]) {
      sim.route({
        method: "GET",
        path: base,
        access: anyUser,
        handler(ctx) {
          const view = ctx.view(["default", "whoami"]);
          if (base === "/api/sessions" && ctx.params.view === undefined)
            return { status: 200, headers: {}, body: "" };
          return ctx.one("session", sessionRepresentation(ctx.userId, ctx.principal!.accountId, view));
        },
      });
      // Public: outside a session the request names the user with email and password.
      sim.route({
        method: "GET",
        path: `${base}/accounts`,
        access: access.public,
        handler(ctx) {
          const userId = accountsUser(ctx, (c) => sim.auth.authenticate(c.headers).userId);
          ctx.view(["default", "extended"]);
          const list = ctx.store.collection<AccountRecord>("accounts").values();
          return ctx.many(
            "account",
            "accounts",
            [...list].map((a) => accountRepresentation(ctx.store, a, userId)),
          );
        },
      });
    }

    sim.route({
      method: "GET",
      path: "/api/accounts/:id",
      access: access.anyOf("observer"),
      handler(ctx) {
        ctx.view(["default"]);
        const account = ctx.store.collection<AccountRecord>("accounts").require(ctx.param("id"), "Account");
        return ctx.one("account", accountRepresentation(ctx.store, account, ctx.userId));
      },
    });

    const users = () => sim.store.collection<UserRecord>("users");
    const read = access.anyOf("observer");
    sim.route({
      method: "GET",
      path: "/api/users",
      access: read,
      handler(ctx) {
        const list = ctx.filter(users().values(), {
          email: { partial: true, get: (u) => u.email },
          first_name: { partial: true, get: (u) => u.first_name },
          last_name: { partial: true, get: (u) => u.last_name },
        });
        ctx.view(["default"]);
        return ctx.many("user", "users", list.map(userRepresentation));
      },
    });
    sim.route({
      method: "GET",
      path: "/api/users/:id",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        return ctx.one("user", userRepresentation(users().require(ctx.param("id"), "User")));
      },
    });

    // Needs no login (load balancers probe it), as the real one answers a bare 200.
    sim.route({
      method: "GET",
      path: "/api/health-check",
      access: access.public,
      raw: true,
      handler: (ctx) => ctx.raw(200, "text/plain; charset=utf-8", "OK"),
    });
  },
});
