import { resourceNotFound } from "../errors.ts";
import { matchHref } from "../hrefs.ts";
import type { Store, StoredObject } from "../store.ts";

/**
 * The subjects an alert spec can hang on (spec 4.12): ServerTemplate, Server, ServerArray,
 * Instance. Each has a path prefix for the nested alert-spec routes and a way to find the
 * ServerTemplate whose alert specs it inherits (`with_inherited=true`).
 */

export interface SubjectKind {
  label: "ServerTemplate" | "Server" | "ServerArray" | "Instance";
  collection: string;
  /** Href template; `:id` is the object's id. */
  hrefTemplate: string;
  /** Path prefix of the nested routes, with router parameter names. */
  pathPrefix: string;
  hrefFromParams(params: Record<string, string>): string;
}

export const SUBJECT_KINDS: readonly SubjectKind[] = [
  {
    label: "ServerTemplate",
    collection: "server_templates",
    hrefTemplate: "/api/server_templates/:id",
    pathPrefix: "/api/server_templates/:server_template_id",
    hrefFromParams: (p) => `/api/server_templates/${p.server_template_id}`,
  },
  {
    label: "Server",
    collection: "servers",
    hrefTemplate: "/api/servers/:id",
    pathPrefix: "/api/servers/:server_id",
    hrefFromParams: (p) => `/api/servers/${p.server_id}`,
  },
  {
    label: "ServerArray",
    collection: "server_arrays",
    hrefTemplate: "/api/server_arrays/:id",
    pathPrefix: "/api/server_arrays/:server_array_id",
    hrefFromParams: (p) => `/api/server_arrays/${p.server_array_id}`,
  },
  {
    label: "Instance",
    collection: "instances",
    hrefTemplate: "/api/clouds/:cloud_id/instances/:id",
    pathPrefix: "/api/clouds/:cloud_id/instances/:instance_id",
    hrefFromParams: (p) => `/api/clouds/${p.cloud_id}/instances/${p.instance_id}`,
  },
];

export interface AlertSubject {
  kind: SubjectKind;
  href: string;
  object: StoredObject & Record<string, unknown>;
}

/**
 * The subject an href names: "malformed" when it has none of the four shapes, a 422
 * ResourceNotFound when the shape is right but no such object exists (an instance must also
 * belong to the cloud of its href).
 */
export function resolveSubject(store: Store, href: string): AlertSubject | "malformed" {
  const bare = href.replace(/\.(json|xml)$/, "");
  for (const kind of SUBJECT_KINDS) {
    const ids = matchHref(bare, kind.hrefTemplate);
    if (!ids?.id) continue;
    const object = store.collection<StoredObject & Record<string, unknown>>(kind.collection).get(ids.id);
    const cloud = object?.cloud_id;
    if (!object || (ids.cloud_id !== undefined && cloud !== undefined && String(cloud) !== ids.cloud_id)) {
      throw resourceNotFound(kind.label, ids.id);
    }
    return { kind, href: bare, object };
  }
  return "malformed";
}

/**
 * The href of the ServerTemplate a subject inherits alert specs from, or null. Linked records
 * name it `server_template_href` (or `server_template_id`); a ServerTemplate inherits nothing.
 */
export function templateHrefOf(subject: AlertSubject): string | null {
  if (subject.kind.label === "ServerTemplate") return null;
  const { server_template_href: href, server_template_id: id } = subject.object;
  if (typeof href === "string" && href !== "") return href;
  if ((typeof id === "string" && id !== "") || typeof id === "number") return `/api/server_templates/${id}`;
  return null;
}
