/**
 * IP address bindings (spec 4.11) under `/api/clouds/:cloud_id` and
 * `/api/clouds/:cloud_id/ip_addresses/:ip_address_id`, followed by `/ip_address_bindings`.
 * A binding to a current (running) instance is one-time (`recurring: false`); to a next
 * instance it is recurring. `server_href` binds the server's current instance. No update.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { currentInstanceHref, isNextInstance, requireCloud } from "../net/linked.ts";
import { checkBinding, ipAddressBindingRules, type Members, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type IpAddressBindingRecord,
  type IpAddressRecord,
  ipAddressBindingSchema,
} from "../net/records.ts";
import { type Loose, requireInCloud, resolveHref } from "../net/references.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { type ScopedCollection, scopedRoutes } from "../scoped-routes.ts";
import type { Store } from "../store.ts";

export const ipAddressBindings = (store: Store) =>
  store.collection<IpAddressBindingRecord>(COLLECTIONS.ipAddressBindings);

export const bindingHref = (b: Pick<IpAddressBindingRecord, "id" | "cloud_id">) =>
  `/api/clouds/${b.cloud_id}/ip_address_bindings/${b.id}`;

const ipHref = (b: IpAddressBindingRecord) =>
  b.ip_address_id === null ? null : hrefOf("ipAddress", b.cloud_id, b.ip_address_id);

export function bindingRepresentation(b: IpAddressBindingRecord): Representation {
  const links = [link("self", bindingHref(b)), link("instance", b.instance_href)];
  const ip = ipHref(b);
  if (ip !== null) links.push(link("ip_address", ip));
  return {
    created_at: formatTimestamp(b.created_at),
    recurring: b.recurring,
    public_port: b.public_port,
    private_port: b.private_port,
    protocol: b.protocol,
    links,
  };
}

const FILTERS: FilterSpec<IpAddressBindingRecord> = {
  instance_href: { partial: false, get: (b) => b.instance_href },
  ip_address_href: { partial: false, get: ipHref },
};

interface Scope {
  cloudId: string;
  ipAddressId: string | null;
}

function scopeOf(ctx: RequestContext): Scope {
  const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
  const ipId = ctx.pathParams.ip_address_id;
  if (ipId !== undefined) requireInCloud(ctx.store, "ipAddress", ipId, cloud.id);
  return { cloudId: cloud.id, ipAddressId: ipId ?? null };
}

const inScope = (b: IpAddressBindingRecord, scope: Scope) =>
  b.cloud_id === scope.cloudId && (scope.ipAddressId === null || b.ip_address_id === scope.ipAddressId);

const BINDINGS: ScopedCollection<IpAddressBindingRecord, Scope> = {
  collection: ipAddressBindings,
  label: "IpAddressBinding",
  type: "ip_address_binding",
  plural: "ip_address_bindings",
  filters: FILTERS,
  scope: scopeOf,
  inScope,
  render: (_ctx, b) => bindingRepresentation(b),
};

/** The instance the binding targets: named directly, or the server's current instance. */
function targetInstance(
  ctx: RequestContext,
  fields: Members,
  cloudId: string,
): { href: string; instance: Loose } {
  const p = (m: string) => `ip_address_binding[${m}]`;
  const instanceHref = text(fields, "instance_href");
  if (instanceHref !== undefined) {
    const resolved = resolveHref(ctx.store, p("instance_href"), instanceHref, "instance");
    if (resolved.cloudId !== cloudId) {
      throw actionNotAllowed(`Instance ${resolved.id} is in cloud ${resolved.cloudId}, not cloud ${cloudId}`);
    }
    return { href: hrefOf("instance", cloudId, resolved.id), instance: resolved.object };
  }
  const server = resolveHref(ctx.store, p("server_href"), text(fields, "server_href")!, "server").object;
  const current = currentInstanceHref(ctx.store, server);
  if (current === null) throw actionNotAllowed(`Server ${server.id} has no current instance to bind to`);
  const resolved = resolveHref(ctx.store, p("server_href"), current, "instance");
  if (resolved.cloudId !== cloudId) {
    throw actionNotAllowed(`Server ${server.id} runs in cloud ${resolved.cloudId}, not cloud ${cloudId}`);
  }
  return { href: current, instance: resolved.object };
}

export const ipAddressBindingsResource = defineResource({
  name: "ip_address_bindings",
  collections: { [COLLECTIONS.ipAddressBindings]: ipAddressBindingSchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("actor");

    for (const prefix of ["/api/clouds/:cloud_id", "/api/clouds/:cloud_id/ip_addresses/:ip_address_id"]) {
      const base = `${prefix}/ip_address_bindings`;
      scopedRoutes(sim, base, BINDINGS, {
        read,
        write,
        create(ctx) {
          const scope = scopeOf(ctx);
          const { ip_address_binding: fields } = ctx.validate<{ ip_address_binding: Members }>({
            ip_address_binding: ipAddressBindingRules.create,
          });
          checkBinding(fields, scope.ipAddressId !== null);
          const target = targetInstance(ctx, fields, scope.cloudId);
          let ipAddressId = scope.ipAddressId;
          const publicHref = text(fields, "public_ip_address_href");
          if (publicHref !== undefined) {
            const ip = resolveHref<IpAddressRecord>(
              ctx.store,
              "ip_address_binding[public_ip_address_href]",
              publicHref,
              "ipAddress",
            );
            if (ip.object.cloud_id !== scope.cloudId) {
              throw actionNotAllowed(
                `IP address ${ip.id} is in cloud ${ip.object.cloud_id}, not cloud ${scope.cloudId}`,
              );
            }
            if (scope.ipAddressId !== null && ip.id !== scope.ipAddressId) {
              throw actionNotAllowed(
                `ip_address_binding[public_ip_address_href] must name IP address ${scope.ipAddressId} of the path`,
              );
            }
            ipAddressId = ip.id;
          }
          const publicPort = text(fields, "public_port");
          const privatePort = text(fields, "private_port") ?? publicPort;

          const binding = ipAddressBindings(ctx.store).insert({
            cloud_id: scope.cloudId,
            ip_address_id: ipAddressId,
            instance_href: target.href,
            recurring: isNextInstance(target.instance),
            public_port: publicPort === undefined ? null : Number(publicPort),
            private_port: privatePort === undefined ? null : Number(privatePort),
            protocol: text(fields, "protocol") ?? null,
            created_at: ctx.clock.now(),
          });
          return ctx.created(bindingHref(binding));
        },
      });
    }
  },
});
