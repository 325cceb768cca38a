import { linkHref } from "../../api/index.ts";
import type { NextHopType, Route, RouteCreate, RouteUpdate } from "../../api/resources/routes.ts";
import type { DesiredContext, FieldDiff, ManagedKind, Reference } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, deepEqual, hrefLinks, InvalidSpecError } from "../../runtime/sdk/index.ts";
import type { NetClient } from "../network/api.ts";
import { LinkCache } from "../shared/link-cache.ts";
import { compact, orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { brokenNextHopRules } from "./rules.ts";
import { type RouteSpec, routeSpecSchema } from "./schema.ts";

export interface RouteObserved {
  href: string;
  destinationCidrBlock: string;
  nextHopType: string;
  /**
   * The `next_hop` link. Null: a route whose type names its hop by href shows none; undefined:
   * the type has no href hop (ip_string, url).
   */
  nextHopHref: string | null | undefined;
  /** Undefined: the representation does not carry the attribute (the seed spec does not promise it). */
  nextHopIp: string | null | undefined;
  nextHopUrl: string | null | undefined;
  description: string | null;
  state: string | null;
  resourceUid: string | null;
  routeTableHref: string | undefined;
  /** The route table's `network` link (a route has none of its own); undefined until known. */
  networkHref: string | undefined;
  cloudHref: string | undefined;
  instanceTags: string[] | undefined;
  priority: number | undefined;
}

export interface RouteDesired {
  routeTableHref: string;
  routeTableField: "networkRef" | "routeTableRef" | "routeTableHref";
  destinationCidrBlock: string;
  nextHopType: NextHopType;
  nextHopHref?: string;
  nextHopField: "nextHopHref" | "nextHopGatewayRef";
  nextHopIp?: string;
  nextHopUrl?: string;
  description?: string;
  instanceTags?: string[];
  priority?: number;
}

/** Fields the update call cannot carry: a change replaces the route (see `replace`). */
export const ROUTE_REPLACED_BY = [
  "networkRef",
  "routeTableRef",
  "routeTableHref",
  "nextHopUrl",
  "cloudSpecificAttributes",
] as const;

function member(r: Route, key: string): string | null | undefined {
  const v = (r as Record<string, unknown>)[key];
  return typeof v === "string" || v === null ? v : undefined;
}

/** Next-hop types whose hop is an object, named by href on write and by the `next_hop` link on read. */
const HREF_HOPS = new Set(["instance", "network_interface", "network_gateway"]);

/**
 * The route's fields: what the create sends, what the representation shows and atProvider. The
 * diff and the update are the kind's own (`diffRoute`, `routeUpdateParams`): the next-hop rules
 * decide which members a change of type carries and what replaces the route.
 */
export const routeFields = new FieldTable<RouteDesired, RouteObserved>([
  { spec: "routeTableHref", param: "route_table_href", link: "route_table", write: "create" },
  {
    spec: "destinationCidrBlock",
    param: "destination_cidr_block",
    attribute: "destination_cidr_block",
    write: "update",
  },
  { spec: "nextHopType", param: "next_hop_type", attribute: "next_hop_type", write: "update" },
  // The hop's href is the `next_hop` link (the real route has no `next_hop_href` attribute).
  { spec: "nextHopHref", param: "next_hop_href", link: "next_hop", write: "update" },
  { spec: "nextHopIp", param: "next_hop_ip", attribute: "next_hop_ip", write: "update" },
  { spec: "nextHopUrl", param: "next_hop_url", attribute: "next_hop_url", write: "create" },
  rows.description(),
  {
    spec: "cloudSpecificAttributes",
    param: "cloud_specific_attributes",
    desired: (d) =>
      d.instanceTags === undefined && d.priority === undefined
        ? undefined
        : compact({ instance_tags: d.instanceTags, priority: d.priority }),
    at: false,
    write: "create",
  },
  { spec: "instanceTags", write: "read" },
  { spec: "priority", write: "read" },
  ...rows.read({ state: "state", resourceUid: "resource_uid" }),
  { spec: "cloudHref", link: "cloud", write: "read" },
  // The network of the route's route table (the real route has no `network` link): see `withNetworks`.
  { spec: "networkHref", write: "read" },
]);

/**
 * The route as the real route media type shows it. A next hop named by href that shows no link
 * is null (lost); next-hop members the representation does not carry stay undefined (not shown).
 */
export function toRouteObserved(r: Route, networkHref?: string): RouteObserved {
  const attrs = r.cloud_specific_attributes ?? undefined;
  return routeFields.observe(r, {
    nextHopHref: linkHref(r, "next_hop") ?? (HREF_HOPS.has(r.next_hop_type) ? null : undefined),
    nextHopIp: member(r, "next_hop_ip"),
    nextHopUrl: member(r, "next_hop_url"),
    networkHref,
    instanceTags: attrs?.instance_tags,
    priority: attrs?.priority,
  });
}

export function routeReferences(spec: RouteSpec): Reference[] {
  const refs: Reference[] = [];
  if (spec.networkRef) refs.push({ field: "networkRef", kind: "Network", name: spec.networkRef.name });
  if (spec.routeTableRef)
    refs.push({ field: "routeTableRef", kind: "RouteTable", name: spec.routeTableRef.name });
  if (spec.nextHopGatewayRef) {
    refs.push({ field: "nextHopGatewayRef", kind: "NetworkGateway", name: spec.nextHopGatewayRef.name });
  }
  return refs;
}

/** The spec's conditional next-hop rules, checked before any call (CEL enforces them at admission). */
export function validateRoute(spec: RouteSpec): void {
  const broken = brokenNextHopRules(spec);
  if (broken.length > 0)
    throw new InvalidSpecError(broken[0]!.field, broken.map((r) => r.message).join("; "));
}

export function desiredRoute(
  spec: RouteSpec,
  resolved: { routeTableHref: string; gatewayHref?: string },
): RouteDesired {
  const d: RouteDesired = {
    routeTableHref: resolved.routeTableHref,
    routeTableField: spec.networkRef ? "networkRef" : spec.routeTableRef ? "routeTableRef" : "routeTableHref",
    destinationCidrBlock: spec.destinationCidrBlock,
    nextHopType: spec.nextHopType,
    nextHopField: spec.nextHopGatewayRef ? "nextHopGatewayRef" : "nextHopHref",
  };
  const hop = spec.nextHopHref ?? resolved.gatewayHref;
  if (hop !== undefined) d.nextHopHref = hop;
  if (spec.nextHopIp !== undefined) d.nextHopIp = spec.nextHopIp;
  if (spec.nextHopUrl !== undefined) d.nextHopUrl = spec.nextHopUrl;
  if (spec.description !== undefined) d.description = spec.description;
  const attrs = spec.cloudSpecificAttributes;
  if (attrs?.instanceTags !== undefined) d.instanceTags = attrs.instanceTags;
  if (attrs?.priority !== undefined) d.priority = attrs.priority;
  return d;
}

/**
 * Pure diff by spec field. Route table, URL next hop and cloud-specific attributes cannot be
 * updated (spec 4.4: update takes no next_hop_url, no route table, no attributes): they are
 * reported under the fields in ROUTE_REPLACED_BY, which replace the route.
 */
export function diffRoute(desired: RouteDesired, observed: RouteObserved): FieldDiff[] {
  const out: FieldDiff[] = [];
  const differs = (field: string, want: unknown, have: unknown) => {
    if (want !== undefined && have !== undefined && !deepEqual(want, have)) {
      out.push({ field, desired: want, observed: have });
    }
  };
  differs(desired.routeTableField, desired.routeTableHref, observed.routeTableHref);
  if (
    (desired.instanceTags !== undefined && !deepEqual(desired.instanceTags, observed.instanceTags)) ||
    (desired.priority !== undefined && desired.priority !== observed.priority)
  ) {
    out.push({
      field: "cloudSpecificAttributes",
      desired: compact({ instanceTags: desired.instanceTags, priority: desired.priority }),
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
    differs(desired.nextHopField, desired.nextHopHref, observed.nextHopHref);
    differs("nextHopIp", desired.nextHopIp, observed.nextHopIp);
  }
  differs("destinationCidrBlock", desired.destinationCidrBlock, observed.destinationCidrBlock);
  differs("description", desired.description, observed.description ?? "");
  return out;
}

export const routeCreateParams = (d: RouteDesired) => routeFields.createParams<RouteCreate>(d);

/** The PUT parameters for the updatable fields that differ; a new type carries its next-hop member. */
export function routeUpdateParams(diff: FieldDiff[], desired: RouteDesired): RouteUpdate {
  const p: RouteUpdate = {};
  const fields = new Set(diff.map((d) => d.field));
  if (fields.has("description")) p.description = desired.description ?? "";
  if (fields.has("destinationCidrBlock")) p.destination_cidr_block = desired.destinationCidrBlock;
  const typeChanged = fields.has("nextHopType");
  if (typeChanged && desired.nextHopType !== "url") p.next_hop_type = desired.nextHopType;
  if ((typeChanged || fields.has(desired.nextHopField)) && desired.nextHopHref !== undefined) {
    p.next_hop_href = desired.nextHopHref;
  }
  if ((typeChanged || fields.has("nextHopIp")) && desired.nextHopIp !== undefined)
    p.next_hop_ip = desired.nextHopIp;
  return p;
}

export const routeAtProvider = (o: RouteObserved) => routeFields.atProvider(o);

/** Same route table, destination and next hop: what identifies the route a lost create made. */
export function sameRoute(desired: RouteDesired, o: RouteObserved): boolean {
  return (
    o.routeTableHref === desired.routeTableHref &&
    o.destinationCidrBlock === desired.destinationCidrBlock &&
    o.nextHopType === desired.nextHopType &&
    (desired.nextHopHref === undefined || o.nextHopHref === desired.nextHopHref) &&
    (desired.nextHopIp === undefined || o.nextHopIp === desired.nextHopIp) &&
    (desired.nextHopUrl === undefined || o.nextHopUrl === desired.nextHopUrl) &&
    (desired.instanceTags === undefined || deepEqual(o.instanceTags, desired.instanceTags)) &&
    (desired.priority === undefined || o.priority === desired.priority)
  );
}

function resolve(
  spec: RouteSpec,
  ctx: DesiredContext<NetClient>,
): { routeTableHref: string; gatewayHref?: string } {
  let routeTableHref = spec.routeTableHref;
  const network = ctx.refs.networkRef;
  if (network) {
    const table = network.atProvider.defaultRouteTableHref;
    if (typeof table !== "string") {
      throw new DependencyNotReadyError(
        `waiting for Network ${network.name} to report its default route table`,
      );
    }
    routeTableHref = table;
  }
  routeTableHref = ctx.refs.routeTableRef?.href ?? routeTableHref;
  return { routeTableHref: routeTableHref!, gatewayHref: ctx.refs.nextHopGatewayRef?.href };
}

/** A route table's network, per Account: the route media type has no `network` link of its own. */
export type TableNetworks = LinkCache;

/** Reads one route and its network (one route table show, remembered per route table). */
export async function observeRoute(
  client: Pick<NetClient, "routes" | "routeTables">,
  href: string,
  networks: TableNetworks,
): Promise<RouteObserved | undefined> {
  const r = await orUndefined(client.routes.show(href));
  if (!r) return undefined;
  const table = linkHref(r, "route_table");
  const network =
    table === undefined
      ? undefined
      : await networks.one(client, table, (h) => orUndefined(client.routeTables.show(h)));
  return toRouteObserved(r, network);
}

/**
 * Routes with their networks: the route tables not known yet are read with one route table
 * index for the whole batch, so a resync of every route costs the routes index and, at most,
 * one route table index per Account (none while the cache holds them).
 */
export async function withNetworks(
  client: Pick<NetClient, "routeTables">,
  routes: Route[],
  networks: TableNetworks,
): Promise<RouteObserved[]> {
  const tables = routes.map((r) => linkHref(r, "route_table")).filter((t) => t !== undefined);
  const byTable =
    tables.length > 0 ? await networks.many(client, tables, () => client.routeTables.index()) : new Map();
  return routes.map((r) => {
    const table = linkHref(r, "route_table");
    return toRouteObserved(r, table === undefined ? undefined : byTable.get(table));
  });
}

export function createRouteKind(
  options: { tableNetworks?: TableNetworks } = {},
): ManagedKind<RouteSpec, RouteDesired, RouteObserved, NetClient> {
  const networks = options.tableNetworks ?? new LinkCache({ rel: "network" });
  return {
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
    references: routeReferences,
    links: (spec) => hrefLinks(spec, ["routeTableHref", "nextHopHref"]),
    validate: validateRoute,
    desired(spec, ctx) {
      const resolved = resolve(spec, ctx);
      // The table's network is known from what the spec references: reading the route then
      // costs no route table call.
      const network = ctx.refs.networkRef?.href ?? ctx.refs.routeTableRef?.atProvider.networkHref;
      if (typeof network === "string" && ctx.client)
        networks.remember(ctx.client, resolved.routeTableHref, network);
      return desiredRoute(spec, resolved);
    },
    observe: (client, href) => observeRoute(client, href, networks),
    async lookup(client, desired) {
      const found = await client.routes.index({
        filter: { route_table_href: desired.routeTableHref, next_hop_type: desired.nextHopType },
      });
      const candidates = found.filter((r) => sameRoute(desired, toRouteObserved(r)));
      return withNetworks(client, candidates, networks);
    },
    hrefOf: (o) => o.href,
    create: (client, desired) => client.routes.create(routeCreateParams(desired)),
    async update(client, href, desired, _observed, diff) {
      const params = routeUpdateParams(diff, desired);
      if (Object.keys(params).length > 0) await client.routes.update(href, params);
    },
    delete: (client, href) => client.routes.destroy(href),
    diff: diffRoute,
    immutable: [...ROUTE_REPLACED_BY],
    // Create the new route first, then delete the old one: the destination is never left
    // without a route (the service allows several routes per destination; `priority` breaks ties).
    replace: "createBeforeDelete",
    atProvider: routeAtProvider,
    index: {
      scope: () => "",
      list: async (client, _scope, wanted) =>
        withNetworks(client, await client.routes.index({ wanted }), networks),
    },
    // atProvider shows the cloud-specific attributes flat; the spec holds them in one object.
    export: {
      spec: (o) => ({
        cloudSpecificAttributes: compact({ instanceTags: o.instanceTags, priority: o.priority }),
      }),
    },
  };
}

export const routeKind = createRouteKind();
