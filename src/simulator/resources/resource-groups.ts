/**
 * Resource groups (spec 4.17). The spec names only the writable fields and the filters; the
 * representation adds state, resource_uid and timestamps (docs/service-api-notes.md). The
 * `state` filter accepts the two values the real service lists, misspelling included.
 */
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, parameterError } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { hrefOf } from "../net/hrefs.ts";
import { listIds } from "../net/messages.ts";
import { type Members, resourceGroupRules, text } from "../net/params.ts";
import { COLLECTIONS, type ResourceGroupRecord, resourceGroupSchema, resourceUid } from "../net/records.ts";
import { resolveHref } from "../net/references.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import type { Store } from "../store.ts";

export const resourceGroups = (store: Store) =>
  store.collection<ResourceGroupRecord>(COLLECTIONS.resourceGroups);

export const STATE_FILTER_VALUES = ["available", "unavalable"] as const;

export function resourceGroupRepresentation(g: ResourceGroupRecord): Representation {
  const links = [link("self", hrefOf("resourceGroup", g.id)), link("cloud", hrefOf("cloud", g.cloud_id))];
  if (g.deployment_href !== null) links.push(link("deployment", g.deployment_href));
  return {
    name: g.name,
    description: g.description,
    state: g.state,
    resource_uid: g.resource_uid,
    created_at: formatTimestamp(g.created_at),
    updated_at: formatTimestamp(g.updated_at),
    links,
    actions: [],
  };
}

const FILTERS: FilterSpec<ResourceGroupRecord> = {
  cloud_href: { partial: false, get: (g) => hrefOf("cloud", g.cloud_id) },
  name: { partial: true, get: (g) => g.name },
  state: { partial: false, get: (g) => g.state },
};

/** A `state` filter naming a value outside the documented list is a 400. */
function checkStateFilter(raw: unknown): void {
  const entries = Array.isArray(raw) ? raw : [raw];
  for (const entry of entries) {
    const m = typeof entry === "string" ? /^state(==|<>)(.*)$/s.exec(entry) : null;
    if (m && !(STATE_FILTER_VALUES as readonly string[]).includes(m[2]!)) {
      throw parameterError(`filter[] state must be one of ${STATE_FILTER_VALUES.join(", ")} (got '${m[2]}')`);
    }
  }
}

function load(ctx: RequestContext): ResourceGroupRecord {
  return resourceGroups(ctx.store).require(ctx.param("id"), "ResourceGroup");
}

export const resourceGroupsResource = defineResource({
  name: "resource_groups",
  collections: { [COLLECTIONS.resourceGroups]: resourceGroupSchema },
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.anyOf("actor");

    sim.route({
      method: "GET",
      path: "/api/resource_groups",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        checkStateFilter(ctx.params.filter);
        const list = ctx.filter(resourceGroups(ctx.store).values(), FILTERS);
        return ctx.many("resource_group", "resource_groups", list.map(resourceGroupRepresentation));
      },
    });

    sim.route({
      method: "GET",
      path: "/api/resource_groups/:id",
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        return ctx.one("resource_group", resourceGroupRepresentation(load(ctx)));
      },
    });

    sim.route({
      method: "POST",
      path: "/api/resource_groups",
      access: write,
      handler(ctx) {
        const { resource_group: fields } = ctx.validate<{ resource_group: Members }>({
          resource_group: resourceGroupRules.create,
        });
        const cloud = resolveHref(
          ctx.store,
          "resource_group[cloud_href]",
          text(fields, "cloud_href")!,
          "cloud",
        ).object;
        const deployment = text(fields, "deployment_href");
        if (deployment !== undefined)
          resolveHref(ctx.store, "resource_group[deployment_href]", deployment, "deployment");
        const now = ctx.clock.now();
        const group = resourceGroups(ctx.store).insert({
          cloud_id: cloud.id,
          name: text(fields, "name")!,
          description: text(fields, "description") ?? null,
          deployment_href: deployment ?? null,
          state: "available",
          resource_uid: "",
          created_at: now,
          updated_at: now,
        });
        group.resource_uid = resourceUid("rg", group.id);
        return ctx.created(hrefOf("resourceGroup", group.id));
      },
    });

    sim.route({
      method: "PUT",
      path: "/api/resource_groups/:id",
      access: write,
      handler(ctx) {
        const { resource_group: fields } = ctx.validate<{ resource_group: Members }>({
          resource_group: resourceGroupRules.update,
        });
        const group = load(ctx);
        const deployment = text(fields, "deployment_href");
        if (deployment) resolveHref(ctx.store, "resource_group[deployment_href]", deployment, "deployment");
        if (deployment !== undefined) group.deployment_href = deployment === "" ? null : deployment;
        if (fields.description !== undefined) group.description = text(fields, "description")!;
        group.updated_at = ctx.clock.now();
        return ctx.noContent();
      },
    });

    sim.route({
      method: "DELETE",
      path: "/api/resource_groups/:id",
      access: write,
      handler(ctx) {
        const group = load(ctx);
        const href = hrefOf("resourceGroup", group.id);
        const users = ctx.store
          .collection<{ id: string; resource_group_href?: string | null }>("deployments")
          .filter((d) => d.resource_group_href === href);
        if (users.length) {
          throw actionNotAllowed(`Resource group ${group.id} is used by deployments ${listIds(users)}`);
        }
        resourceGroups(ctx.store).delete(group.id);
        return ctx.noContent();
      },
    });
  },
});
