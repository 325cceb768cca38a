/**
 * IP addresses (spec 4.10) under `/api/clouds/:cloud_id/ip_addresses`. Addresses are
 * allocated from 198.18.0.0/15 by id. `domain` exists only on the public-cloud kind (default
 * `ec2_classic` there); `network_href` is required on an open-source stack cloud that
 * supports networks. Destroy is refused (422) while bindings use the address.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, parameterError, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { formatIpv4, parseIpv4 } from "../net/cidr.ts";
import { hrefOf } from "../net/hrefs.ts";
import { cloudSupports, isAwsLike, isOpenStackLike, requireCloud } from "../net/linked.ts";
import { listIds } from "../net/messages.ts";
import { ipAddressRules, type Members, text } from "../net/params.ts";
import {
  COLLECTIONS,
  type IpAddressBindingRecord,
  type IpAddressRecord,
  ipAddressSchema,
  type NetworkRecord,
} from "../net/records.ts";
import { resolveHref } from "../net/references.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import type { Store } from "../store.ts";

export const ipAddresses = (store: Store) => store.collection<IpAddressRecord>(COLLECTIONS.ipAddresses);

export const ipAddressHref = (a: Pick<IpAddressRecord, "id" | "cloud_id">) =>
  hrefOf("ipAddress", a.cloud_id, a.id);

const POOL_BASE = parseIpv4("198.18.0.0")!;
const POOL_SIZE = 2 ** 17;

/** The address of the id-th allocation (deterministic, wraps inside the pool). */
export function allocateAddress(id: string): string {
  const n = Number(id);
  return formatIpv4(POOL_BASE + ((Number.isInteger(n) ? n : 0) % POOL_SIZE));
}

export function ipAddressRepresentation(a: IpAddressRecord): Representation {
  const href = ipAddressHref(a);
  // No `cloud` link: the real media type has none (the href names the cloud).
  const links = [link("self", href)];
  if (a.network_href !== null) links.push(link("network", a.network_href));
  if (a.deployment_href !== null) links.push(link("deployment", a.deployment_href));
  links.push(link("ip_address_bindings", `${href}/ip_address_bindings`));
  return {
    created_at: formatTimestamp(a.created_at),
    updated_at: formatTimestamp(a.updated_at),
    name: a.name,
    address: a.address,
    domain: a.domain,
    links,
  };
}

const FILTERS: FilterSpec<IpAddressRecord> = {
  deployment_href: { partial: false, get: (a) => a.deployment_href },
  name: { partial: true, get: (a) => a.name },
};

function load(ctx: RequestContext): IpAddressRecord {
  const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
  const id = ctx.param("id");
  const found = ipAddresses(ctx.store).get(id);
  if (!found || found.cloud_id !== cloud.id) throw resourceNotFound("IpAddress", id);
  return found;
}

export const ipAddressesResource = defineResource({
  name: "ip_addresses",
  collections: { [COLLECTIONS.ipAddresses]: ipAddressSchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("actor");
    const base = "/api/clouds/:cloud_id/ip_addresses";

    sim.route({
      method: "GET",
      path: base,
      access: read,
      handler(ctx) {
        const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
        ctx.view(["default"]);
        const list = ctx.filter(
          ipAddresses(ctx.store).filter((a) => a.cloud_id === cloud.id),
          FILTERS,
        );
        return ctx.many("ip_address", "ip_addresses", list.map(ipAddressRepresentation));
      },
    });

    sim.route({
      method: "GET",
      path: `${base}/:id`,
      access: read,
      handler(ctx) {
        const found = load(ctx);
        ctx.view(["default"]);
        return ctx.one("ip_address", ipAddressRepresentation(found));
      },
    });

    sim.route({
      method: "POST",
      path: base,
      access: write,
      handler(ctx) {
        const cloud = requireCloud(ctx.store, ctx.param("cloud_id"));
        const { ip_address: fields } = ctx.validate<{ ip_address: Members }>({
          ip_address: ipAddressRules.create,
        });
        const domain = text(fields, "domain");
        if (domain !== undefined && !isAwsLike(cloud)) {
          throw parameterError(
            `ip_address[domain] is not allowed on cloud ${cloud.id} (${String(cloud.cloud_type)})`,
          );
        }
        const networkHref = text(fields, "network_href");
        if (
          networkHref === undefined &&
          isOpenStackLike(cloud) &&
          cloudSupports(cloud, "supports_networks")
        ) {
          throw parameterError(
            `ip_address[network_href] is required on cloud ${cloud.id} (${String(cloud.cloud_type)})`,
          );
        }
        if (networkHref !== undefined) {
          const network = resolveHref<NetworkRecord>(
            ctx.store,
            "ip_address[network_href]",
            networkHref,
            "network",
          ).object;
          if (network.cloud_id !== cloud.id) {
            throw actionNotAllowed(
              `Network ${network.id} is in cloud ${network.cloud_id}, not cloud ${cloud.id}`,
            );
          }
        }
        const deployment = text(fields, "deployment_href");
        if (deployment !== undefined)
          resolveHref(ctx.store, "ip_address[deployment_href]", deployment, "deployment");

        const now = ctx.clock.now();
        const collection = ipAddresses(ctx.store);
        const created = collection.insert({
          cloud_id: cloud.id,
          name: text(fields, "name")!,
          address: allocateAddress(collection.peekId()),
          domain: domain ?? (isAwsLike(cloud) ? "ec2_classic" : null),
          network_href: networkHref ?? null,
          deployment_href: deployment ?? null,
          created_at: now,
          updated_at: now,
        });
        return ctx.created(ipAddressHref(created));
      },
    });

    sim.route({
      method: "PUT",
      path: `${base}/:id`,
      access: write,
      handler(ctx) {
        const found = load(ctx);
        const { ip_address: fields } = ctx.validate<{ ip_address: Members }>({
          ip_address: ipAddressRules.update,
        });
        const deployment = text(fields, "deployment_href");
        if (deployment) resolveHref(ctx.store, "ip_address[deployment_href]", deployment, "deployment");
        found.name = text(fields, "name")!;
        if (deployment !== undefined) found.deployment_href = deployment === "" ? null : deployment;
        found.updated_at = ctx.clock.now();
        return ctx.noContent();
      },
    });

    sim.route({
      method: "DELETE",
      path: `${base}/:id`,
      access: write,
      handler(ctx) {
        const found = load(ctx);
        const bindings = ctx.store
          .collection<IpAddressBindingRecord>(COLLECTIONS.ipAddressBindings)
          .filter((b) => b.ip_address_id === found.id);
        if (bindings.length) {
          throw actionNotAllowed(
            `IP address ${found.id} is still bound (ip address bindings ${listIds(bindings)}): destroy them first`,
          );
        }
        ipAddresses(ctx.store).delete(found.id);
        return ctx.noContent();
      },
    });
  },
});
