import { MockAgent } from "undici";
import { createServiceApi, type ServiceApi } from "../api/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";

/**
 * The attributes and link rels the real service's media types declare, for the media types the
 * kinds read: copied from the real API 1.5 reference data (the project's seed, "Real media types
 * and routes of the service", `real-media-types.json`), not from the simulator. Test support only.
 */
export const REAL_MEDIA_TYPES = {
  deployment: {
    attributes: ["name", "description", "server_tag_scope", "inputs", "locked", "links", "actions"],
    links: ["inputs", "lock_user", "self", "servers", "server_arrays", "alerts", "resource_group"],
  },
  network: {
    attributes: [
      "resource_uid",
      "name",
      "description",
      "instance_tenancy",
      "cidr_block",
      "is_default",
      "links",
      "actions",
    ],
    links: ["self", "cloud", "default_route_table", "deployment"],
  },
  subnet: {
    attributes: [
      "visibility",
      "resource_uid",
      "name",
      "state",
      "cidr_block",
      "description",
      "is_default",
      "links",
    ],
    links: ["self", "datacenter", "network", "route_table", "effective_route_table"],
  },
  network_gateway: {
    attributes: [
      "links",
      "actions",
      "name",
      "description",
      "type",
      "state",
      "resource_uid",
      "created_at",
      "updated_at",
    ],
    links: ["self", "network", "cloud"],
  },
  route: {
    attributes: [
      "links",
      "description",
      "destination_cidr_block",
      "next_hop_type",
      "next_hop_ip",
      "next_hop_url",
      "state",
      "created_at",
      "resource_uid",
      "updated_at",
      "cloud_specific_attributes",
    ],
    links: ["self", "route_table", "next_hop", "cloud"],
  },
  route_table: {
    attributes: [
      "resource_uid",
      "name",
      "description",
      "links",
      "actions",
      "created_at",
      "updated_at",
      "routes",
    ],
    links: ["self", "cloud", "network", "routes"],
  },
  volume: {
    attributes: [
      "created_at",
      "updated_at",
      "name",
      "resource_uid",
      "size",
      "description",
      "status",
      "iops",
      "links",
      "actions",
      "volume_type",
      "placement_group",
      "cloud_specific_attributes",
    ],
    links: [
      "self",
      "cloud",
      "datacenter",
      "deployment",
      "volume_type",
      "volume_snapshots",
      "image",
      "parent_volume_snapshot",
      "current_volume_attachment",
      "recurring_volume_attachments",
      "placement_group",
    ],
  },
  recurring_volume_attachment: {
    attributes: [
      "created_at",
      "updated_at",
      "name",
      "runnable_type",
      "storage_type",
      "status",
      "device",
      "device_id",
      "size",
      "links",
      "actions",
    ],
    links: ["self", "cloud", "runnable", "storage"],
  },
  permission: {
    attributes: ["id", "role_title", "created_at", "deleted_at", "links", "actions"],
    links: ["self", "account", "user"],
  },
  ip_address: {
    attributes: ["created_at", "updated_at", "name", "links", "address", "domain"],
    links: ["self", "network", "deployment", "ip_address_bindings"],
  },
  ip_address_binding: {
    attributes: ["created_at", "links", "recurring", "public_port", "private_port", "protocol"],
    links: ["self", "instance", "ip_address"],
  },
  alert_spec: {
    attributes: [
      "name",
      "description",
      "created_at",
      "updated_at",
      "duration",
      "threshold",
      "condition",
      "file",
      "variable",
      "escalation_name",
      "vote_tag",
      "vote_type",
      "links",
      "actions",
    ],
    links: ["self", "subject"],
  },
  resource_group: {
    attributes: [
      "name",
      "description",
      "state",
      "resource_uid",
      "created_at",
      "updated_at",
      "links",
      "actions",
    ],
    links: ["self", "cloud", "deployment"],
  },
  stored_script_attachment: {
    attributes: ["id", "filename", "created_at", "updated_at", "digest", "size", "download_url", "links"],
    links: ["self", "stored_script"],
  },
} as const;

export type RealMediaType = keyof typeof REAL_MEDIA_TYPES;

/** A kind observed from real representations: what it shows and what it finds differing. */
export interface RealShapeCase {
  reason: string;
  kind: AnyManagedKind;
  href: string;
  desired: unknown;
  /** Representations by path (the object's href, route tables, ...). */
  paths: Record<string, unknown>;
  atProvider: Record<string, unknown>;
  diff: string[];
}

/**
 * A representation of `type` with exactly the given attributes and links (rel -> href), in the
 * reference's link order. Anything the real media type does not declare throws, naming it: a
 * test built on these cannot lean on a member only the simulator sends.
 */
export function realRepresentation(
  type: RealMediaType,
  attributes: Record<string, unknown>,
  links: Record<string, string>,
): Record<string, unknown> {
  const declared = REAL_MEDIA_TYPES[type];
  const attrs: readonly string[] = declared.attributes;
  const rels: readonly string[] = declared.links;
  for (const name of Object.keys(attributes)) {
    if (name === "links" || !attrs.includes(name))
      throw new Error(`${type}: attribute ${name} is not declared by the real media type`);
  }
  for (const rel of Object.keys(links)) {
    if (!rels.includes(rel)) throw new Error(`${type}: link ${rel} is not declared by the real media type`);
  }
  return {
    ...attributes,
    links: rels.filter((rel) => rel in links).map((rel) => ({ rel, href: links[rel] })),
  };
}

export interface FakeService {
  api: ServiceApi;
  /** Paths of the GETs answered, in order. */
  gets: string[];
  close(): Promise<void>;
}

/**
 * The real service client against a fake service that answers GETs from `paths` (a
 * representation, or a collection as an array; the query is not looked at, 404 for any other
 * path), or with what `paths` returns for the path, through undici's MockAgent: what a kind
 * reads goes through the client's schemas.
 */
export function fakeService(paths: Record<string, unknown> | ((path: string) => unknown)): FakeService {
  const origin = "https://us-3.svc.test";
  const agent = new MockAgent();
  agent.disableNetConnect();
  const gets: string[] = [];
  const pool = agent.get(origin);
  pool
    .intercept({ path: "/api/oauth2/", method: "POST" })
    .reply(200, { access_token: "a1", expires_in: 7200, token_type: "bearer" })
    .persist();
  pool
    .intercept({ path: () => true, method: "GET" })
    .reply((opts) => {
      const path = opts.path.split("?")[0]!;
      gets.push(path);
      const body = typeof paths === "function" ? paths(path) : paths[path];
      if (body === undefined) return { statusCode: 404, data: "" };
      return {
        statusCode: 200,
        data: JSON.stringify(body),
        responseOptions: { headers: { "content-type": "application/vnd.svc+json" } },
      };
    })
    .persist();
  const api = createServiceApi({
    endpoint: origin,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "rt" },
    dispatcher: agent,
    rateLimit: false,
    retry: { maxAttempts: 1 },
  });
  return {
    api,
    gets,
    close: async () => {
      await api.close();
      await agent.close();
    },
  };
}
