import { readFileSync } from "node:fs";

/**
 * The real service's reference data (fixtures/real-media-types.json, copied from
 * shared/spec/real-media-types.json): per resource, the attributes and link rels its media
 * type declares, and per action its routes, status, media type and views.
 */

export interface ActionFacts {
  routes: string[];
  status: number;
  media_type: string | null;
  views: string[];
  parameters: Record<string, unknown>;
}

export interface ResourceFacts {
  media_type: string | null;
  attributes: string[];
  links: string[];
  actions: Record<string, ActionFacts>;
}

export type Facts = Record<string, ResourceFacts>;

export function loadFacts(): Facts {
  const url = new URL("../fixtures/real-media-types.json", import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Facts;
}

/**
 * A route as a comparable key: parameter names dropped (the simulator names them `:id` where
 * the reference says `:server_array_id`), no trailing slash: `GET /api/clouds/:/volumes/:`.
 */
export function routeKey(method: string, template: string): string {
  const path = template.length > 1 && template.endsWith("/") ? template.slice(0, -1) : template;
  return `${method} ${path.replace(/:[a-z_]+/g, ":")}`;
}

export interface RouteFacts {
  resource: string;
  action: string;
  facts: ActionFacts;
}

/** Every route of the reference, by routeKey. */
export function routeIndex(facts: Facts): Map<string, RouteFacts> {
  const out = new Map<string, RouteFacts>();
  for (const [resource, r] of Object.entries(facts)) {
    for (const [action, a] of Object.entries(r.actions)) {
      for (const route of a.routes) {
        const [method, template] = route.split(" ") as [string, string];
        out.set(routeKey(method, template), { resource, action, facts: a });
      }
    }
  }
  return out;
}

/** The resource whose media type is `mediaType` (`application/vnd.svc.instance`, no parameters). */
export function resourceOfMediaType(facts: Facts, mediaType: string): string | undefined {
  return Object.entries(facts).find(([, r]) => r.media_type === mediaType)?.[0];
}

/** `application/vnd.svc.instance;type=collection` → the bare type and whether it is a collection. */
export function splitMediaType(mediaType: string): { type: string; collection: boolean } {
  const [type, ...parameters] = mediaType.split(";").map((s) => s.trim());
  return { type: type!, collection: parameters.includes("type=collection") };
}

/** Every view any action of the reference accepts. */
export function allViews(facts: Facts): string[] {
  const views = new Set<string>();
  for (const r of Object.values(facts))
    for (const a of Object.values(r.actions)) for (const v of a.views) views.add(v);
  return [...views].sort();
}
