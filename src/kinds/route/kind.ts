import { linkHref } from "../../api/index.ts";
import type { Route, RouteUpdate } from "../../api/resources/routes.ts";
import type { Linked } from "../../api/schemas.ts";
import type { FieldDiff } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, deepEqual, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { LinkCache } from "../shared/link-cache.ts";
import { compact, orUndefined } from "../shared/observe.ts";
import {
  accountWide,
  type TableBase,
  type TableDesired,
  type TableObserved,
  tableKind,
} from "../shared/table-kind.ts";
import { brokenNextHopRules } from "./rules.ts";
import { type RouteClient, type RouteSpec, routeRows, routeSpecSchema } from "./schema.ts";

type Base = TableBase<RouteSpec, RouteClient>;

/** Fields the update call cannot carry: a change replaces the route (see `replace`). */
export const ROUTE_REPLACED_BY = [
  "networkRef",
  "routeTableRef",
  "routeTableHref",
  "nextHopUrl",
  "cloudSpecificAttributes",
] as const;

/** Next-hop types whose hop is an object, named by href on write and by the `next_hop` link on read. */
const HREF_HOPS = new Set(["instance", "network_interface", "network_gateway"]);

/** A member the representation carries (a string or null); undefined when it does not carry it. */
function member(r: Linked, key: string): string | null | undefined {
  const v = (r as unknown as Record<string, unknown>)[key];
  return typeof v === "string" || v === null ? v : undefined;
}

/**
 * The route as the real route media type shows it, with its route table's network. A next hop
 * named by href that shows no link is null (lost); next-hop members the representation does not
 * carry stay undefined (not shown, so not compared: the seed spec does not promise them).
 */
function routeOf(base: Base, r: Linked, networkHref?: string): TableObserved {
  const o = base.record(r, "");
  const hop = linkHref(r, "next_hop") ?? (HREF_HOPS.has(o.nextHopType as string) ? null : undefined);
  const [nextHopIp, nextHopUrl] = [member(r, "next_hop_ip"), member(r, "next_hop_url")];
  return { ...o, nextHopHref: hop, nextHopIp, nextHopUrl, networkHref };
}

/** The spec's conditional next-hop rules, checked before any call (CEL enforces them at admission). */
export function validateRoute(spec: RouteSpec): void {
  const broken = brokenNextHopRules(spec);
  if (broken.length > 0)
    throw new InvalidSpecError(broken[0]!.field, broken.map((r) => r.message).join("; "));
}

/** The instance tags and priority the spec sets (its cloudSpecificAttributes). */
function wantedAttributes(d: TableDesired): { instanceTags?: unknown; priority?: unknown } {
  return (d.cloudSpecificAttributes as object | undefined) ?? {};
}

/**
 * Pure diff by spec field. Route table, URL next hop and cloud-specific attributes cannot be
 * updated (spec 4.4: update takes no next_hop_url, no route table, no attributes): they are
 * reported under the fields in ROUTE_REPLACED_BY, which replace the route.
 */
export function diffRoute(desired: TableDesired, observed: TableObserved): FieldDiff[] {
  const out: FieldDiff[] = [];
  const differs = (field: string, want: unknown, have: unknown) => {
    if (want !== undefined && have !== undefined && !deepEqual(want, have)) {
      out.push({ field, desired: want, observed: have });
    }
  };
  const named = (field: string) => desired.fields[field] ?? field;
  differs(named("routeTableHref"), desired.routeTableHref, observed.routeTableHref);
  const want = wantedAttributes(desired);
  if (
    (want.instanceTags !== undefined && !deepEqual(want.instanceTags, observed.instanceTags)) ||
    (want.priority !== undefined && want.priority !== observed.priority)
  ) {
    out.push({
      field: "cloudSpecificAttributes",
      desired: compact({ instanceTags: want.instanceTags, priority: want.priority }),
      observed: compact({ instanceTags: observed.instanceTags, priority: observed.priority }),
    });
  }
  const url = desired.nextHopType === "url" || observed.nextHopType === "url";
  if (url) {
    if (desired.nextHopType !== observed.nextHopType) {
      out.push({
        field: "nextHopUrl",
        desired: desired.nextHopUrl ?? null,
        observed: observed.nextHopUrl ?? null,
      });
    } else differs("nextHopUrl", desired.nextHopUrl, observed.nextHopUrl);
  } else {
    differs("nextHopType", desired.nextHopType, observed.nextHopType);
    differs(named("nextHopHref"), desired.nextHopHref, observed.nextHopHref);
    differs("nextHopIp", desired.nextHopIp, observed.nextHopIp);
  }
  differs("destinationCidrBlock", desired.destinationCidrBlock, observed.destinationCidrBlock);
  differs("description", desired.description, observed.description ?? "");
  return out;
}

/** The PUT parameters for the updatable fields that differ; a new type carries its next-hop member. */
export function routeUpdateParams(diff: FieldDiff[], desired: TableDesired): RouteUpdate {
  const p: RouteUpdate = {};
  const fields = new Set(diff.map((d) => d.field));
  const d = desired as TableDesired & Partial<Record<string, string>>;
  if (fields.has("description")) p.description = d.description ?? "";
  if (fields.has("destinationCidrBlock")) p.destination_cidr_block = d.destinationCidrBlock;
  const typeChanged = fields.has("nextHopType");
  if (typeChanged && d.nextHopType !== "url") p.next_hop_type = d.nextHopType as RouteUpdate["next_hop_type"];
  const hopField = d.fields.nextHopHref ?? "nextHopHref";
  if ((typeChanged || fields.has(hopField)) && d.nextHopHref !== undefined) p.next_hop_href = d.nextHopHref;
  if ((typeChanged || fields.has("nextHopIp")) && d.nextHopIp !== undefined) p.next_hop_ip = d.nextHopIp;
  return p;
}

/** Same route table, destination and next hop: what identifies the route a lost create made. */
export function sameRoute(desired: TableDesired, o: TableObserved): boolean {
  const want = wantedAttributes(desired);
  const same = (k: string) => desired[k] === undefined || o[k] === desired[k];
  return (
    o.routeTableHref === desired.routeTableHref &&
    o.destinationCidrBlock === desired.destinationCidrBlock &&
    o.nextHopType === desired.nextHopType &&
    ["nextHopHref", "nextHopIp", "nextHopUrl"].every(same) &&
    (want.instanceTags === undefined || deepEqual(o.instanceTags, want.instanceTags)) &&
    (want.priority === undefined || o.priority === want.priority)
  );
}

/** A route table's network, per Account: the route media type has no `network` link of its own. */
export type TableNetworks = LinkCache;

/**
 * Routes with their networks: the route tables not known yet are read with one route table
 * index for the whole batch, so a resync of every route costs the routes index and, at most,
 * one route table index per Account (none while the cache holds them).
 */
async function withNetworks(
  base: Base,
  client: RouteClient,
  routes: Route[],
  networks: TableNetworks,
): Promise<TableObserved[]> {
  const tables = routes.map((r) => linkHref(r, "route_table")).filter((t) => t !== undefined);
  const byTable =
    tables.length > 0 ? await networks.many(client, tables, () => client.routeTables.index()) : new Map();
  return routes.map((r) => {
    const table = linkHref(r, "route_table");
    return routeOf(base, r, table === undefined ? undefined : byTable.get(table));
  });
}

/**
 * A route (spec 4.4): a table kind, listed account-wide, whose diff and update follow the
 * next-hop rules, whose route table comes from a Network's default when the spec names the
 * Network, and whose observed record carries its route table's network.
 */
export function createRouteKind(options: { tableNetworks?: TableNetworks } = {}) {
  const networks = options.tableNetworks ?? new LinkCache({ rel: "network" });
  return tableKind({
    kind: "Route",
    plural: "routes",
    singular: "route",
    shortNames: ["svcroute"],
    description:
      "A route in a route table of the cloud-management service: a RouteTable's (routeTableRef), a Network's " +
      "default route table (networkRef), or one named by href.",
    schema: routeSpecSchema,
    printerColumns: [
      {
        name: "Destination",
        type: "string",
        jsonPath: ".spec.destinationCidrBlock",
        description: "Destination CIDR",
      },
      { name: "Next-Hop", type: "string", jsonPath: ".spec.nextHopType", description: "Next hop type" },
    ],
    rows: routeRows,
    resource: (client: RouteClient) => accountWide(client.routes),
    lookupBy: ["routeTableHref", "nextHopType"],
    deleteRefused: "stall",
    validate: validateRoute,
    immutable: [...ROUTE_REPLACED_BY],
    // Create the new route first, then delete the old one: the destination is never left
    // without a route (the service allows several routes per destination; `priority` breaks ties).
    replace: "createBeforeDelete",
    // atProvider shows the cloud-specific attributes flat; the spec holds them in one object.
    export: {
      spec: (o) => ({
        cloudSpecificAttributes: compact({ instanceTags: o.instanceTags, priority: o.priority }),
      }),
    },
    overrides: {
      async desired(base, spec, ctx) {
        const d = await base.desired(spec, ctx);
        const network = ctx.refs.networkRef;
        if (network) {
          const table = network.atProvider.defaultRouteTableHref;
          if (typeof table !== "string")
            throw new DependencyNotReadyError(
              `waiting for Network ${network.name} to report its default route table`,
            );
          [d.routeTableHref, d.fields.routeTableHref] = [table, "networkRef"];
        }
        // The table's network is known from what the spec references: reading the route then
        // costs no route table call.
        const of = network?.href ?? ctx.refs.routeTableRef?.atProvider.networkHref;
        if (typeof of === "string" && ctx.client)
          networks.remember(ctx.client, d.routeTableHref as string, of);
        return d;
      },
      async observe(base, client, href) {
        const r = await orUndefined(client.routes.show(href));
        if (!r) return undefined;
        const table = linkHref(r, "route_table");
        const network =
          table === undefined
            ? undefined
            : await networks.one(client, table, (h) => orUndefined(client.routeTables.show(h)));
        return routeOf(base, r, network);
      },
      async lookup(base, client, desired) {
        const filter = {
          route_table_href: String(desired.routeTableHref),
          next_hop_type: String(desired.nextHopType),
        };
        const found = await client.routes.index({ filter });
        const candidates = found.filter((r) => sameRoute(desired, routeOf(base, r)));
        return withNetworks(base, client, candidates, networks);
      },
      list: async (base, client, _scope, wanted) =>
        withNetworks(base, client, await client.routes.index({ wanted }), networks),
      diff: (_base, desired, observed) => diffRoute(desired, observed),
      async update(_base, client, href, desired, _observed, diff) {
        const params = routeUpdateParams(diff, desired);
        if (Object.keys(params).length > 0) await client.routes.update(href, params);
      },
    },
  });
}

export const routeKind = createRouteKind();
