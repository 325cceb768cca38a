import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestTarget } from "../lib/http/index.ts";
import type { Presenter } from "./admission-adapter.ts";
import { type DenyList, requestVerb } from "./deny.ts";
import {
  AGGREGATED_DISCOVERY,
  aggregatedDiscovery,
  apiVersions,
  group,
  groupList,
  resourceList,
  SERVER_VERSION,
  wantsAggregated,
} from "./discovery.ts";
import {
  ApiError,
  badRequest,
  methodNotAllowed,
  pageNotFound,
  plainNotFound,
  unauthorized,
  unsupportedMediaType,
} from "./errors.ts";
import { isApiError, readBody, readBodyBytes, sendError, sendJson, wantsTable } from "./http-util.ts";
import { isObj, type Obj } from "./meta.ts";
import { openApiV2Response } from "./openapi/v2-protobuf.ts";
import { Operations } from "./operations.ts";
import { decodeProtobuf, PROTOBUF_KINDS } from "./protobuf.ts";
import { deleteOptions, dryRunOf, fieldValidationOf, intParam, managerOf } from "./request-options.ts";
import { PATCH_CONTENT_TYPES, type WriteRequest } from "./requests.ts";
import { type Route, route } from "./router.ts";
import type { ResourceType } from "./types.ts";
import type { WatchHub, WatchRequest } from "./watch.ts";

export interface HandlerDeps {
  ops: Operations;
  hub: WatchHub;
  presenter: Presenter;
  /** Requests refused with a 403 (test-only authorization, deny.ts). */
  deny: DenyList;
  token: string;
  /** host:port as clients reach it (for /api's serverAddressByClientCIDRs). */
  serverAddress: () => string;
  log: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
}

const CRD_KEY = "apiextensions.k8s.io/customresourcedefinitions";
const PUBLIC_ROUTES = new Set(["version", "health"]);

function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7).trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export function createHandler(
  deps: HandlerDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { ops, hub, presenter } = deps;
  const isNamespaced = (g: string, v: string, r: string) => ops.registry.find(g, v, r)?.namespaced === true;
  const crds = () => ops.store.list(CRD_KEY);
  // The built-in groups answer an unknown version or resource with a Status; anything else
  // (an unknown group, a CRD's group) falls through to the mux's plain-text 404.
  const notFoundIn = (groupName: string) =>
    groupName === "" || ops.registry.all().some((t) => t.group === groupName && !t.custom)
      ? pageNotFound()
      : plainNotFound();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestTarget(req.url);
    if (!url) throw badRequest("the request target is not a URL path");
    const r = route(url.pathname, isNamespaced);
    if (!PUBLIC_ROUTES.has(r.kind) && !tokenMatches(req.headers.authorization, deps.token))
      throw unauthorized();
    const method = req.method ?? "GET";
    switch (r.kind) {
      case "version":
        return sendJson(res, 200, SERVER_VERSION);
      case "health":
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("ok");
        return;
      case "api":
        if (wantsAggregated(req.headers.accept)) {
          return sendJson(res, 200, aggregatedDiscovery(ops.registry, true), {
            "Content-Type": AGGREGATED_DISCOVERY,
          });
        }
        return sendJson(res, 200, apiVersions(deps.serverAddress()));
      case "apis":
        if (wantsAggregated(req.headers.accept)) {
          return sendJson(res, 200, aggregatedDiscovery(ops.registry, false), {
            "Content-Type": AGGREGATED_DISCOVERY,
          });
        }
        return sendJson(res, 200, groupList(ops.registry));
      case "group": {
        const doc = group(ops.registry, r.group);
        if (!doc) throw notFoundIn(r.group);
        return sendJson(res, 200, doc);
      }
      case "resources": {
        const doc = resourceList(ops.registry, r.group, r.version);
        if (!doc) throw notFoundIn(r.group);
        return sendJson(res, 200, doc);
      }
      case "openapi-v2": {
        const answer = openApiV2Response(req.headers.accept, presenter.openApiV2(crds()));
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      case "openapi-v3":
        return sendJson(res, 200, presenter.openApiV3Index(crds()));
      case "openapi-v3-gv": {
        const doc = presenter.openApiV3GroupVersion(crds(), r.group, r.version);
        if (!doc) throw pageNotFound();
        return sendJson(res, 200, doc);
      }
      case "cut-watches": {
        if (method !== "POST") throw methodNotAllowed();
        const mode = url.searchParams.get("mode") === "close" ? "close" : "reset";
        const cut = hub.cutAll(mode);
        deps.log("info", "fault: cut watch connections", { cut, mode });
        return sendJson(res, 200, { cut, mode });
      }
      case "deny": {
        if (method === "GET") return sendJson(res, 200, deps.deny.current);
        if (method !== "POST") throw methodNotAllowed();
        const config = deps.deny.setFromBody(Operations.parseBody(await readBody(req), "application/json"));
        deps.log("info", "fault: deny", { rules: config.rules.length });
        return sendJson(res, 200, config);
      }
      case "resource":
        return handleResource(req, res, r, url.searchParams, method);
      default:
        throw plainNotFound();
    }
  };

  const handleResource = async (
    req: IncomingMessage,
    res: ServerResponse,
    r: Extract<Route, { kind: "resource" }>,
    query: URLSearchParams,
    method: string,
  ): Promise<void> => {
    const isWatch = r.legacyWatch || query.get("watch") === "true" || query.get("watch") === "1";
    // Authorization comes before the resource is looked up, as on the real server (a 403, not a 404).
    const refused = deps.deny.check({
      verb: requestVerb(method, r.name !== undefined, isWatch),
      group: r.group,
      resource: r.resource,
      ...(r.subresource !== undefined ? { subresource: r.subresource } : {}),
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
      ...(r.name !== undefined ? { name: r.name } : {}),
    });
    if (refused) throw refused;
    const type = ops.registry.find(r.group, r.version, r.resource);
    if (!type) throw notFoundIn(r.group);
    if (r.namespace !== undefined && !type.namespaced) throw pageNotFound();
    if (r.subresource !== undefined && !type.subresources.includes(r.subresource)) throw pageNotFound();
    const warnings: string[] = [];
    const write: WriteRequest = {
      type,
      version: r.version,
      manager: managerOf(query, req),
      dryRun: method === "GET" ? false : dryRunOf(query.getAll("dryRun"), method),
      warnings,
    };
    if (r.namespace !== undefined) write.namespace = r.namespace;
    const headers = () =>
      warnings.length > 0
        ? { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(", ") }
        : undefined;
    const reply = (code: number, body: unknown) => sendJson(res, code, body, headers());
    const table = wantsTable(req.headers.accept);
    const include = query.get("includeObject");
    const includeObject =
      include === "None" || include === "Metadata" || include === "Object" ? include : undefined;
    const asTable = (objects: Obj[], listMeta?: object, noHeaders?: boolean) =>
      presenter.toTable(type.crdVersion?.(r.version), objects, listMeta, {
        noHeaders,
        ...(includeObject ? { includeObject } : {}),
      });

    const startWatch = (fieldSelector: string | undefined): void => {
      const timeoutSeconds = intParam(query, "timeoutSeconds");
      const watch: WatchRequest = {
        type,
        version: r.version,
        allowWatchBookmarks: query.get("allowWatchBookmarks") === "true",
      };
      const initial = query.get("sendInitialEvents");
      if (initial !== null) watch.sendInitialEvents = initial === "true";
      if (query.get("resourceVersionMatch")) watch.resourceVersionMatch = query.get("resourceVersionMatch")!;
      if (r.namespace !== undefined) watch.namespace = r.namespace;
      if (query.get("resourceVersion") !== null) watch.resourceVersion = query.get("resourceVersion")!;
      if (query.get("labelSelector")) watch.labelSelector = query.get("labelSelector")!;
      if (fieldSelector) watch.fieldSelector = fieldSelector;
      if (timeoutSeconds !== undefined) watch.timeoutSeconds = timeoutSeconds;
      if (table) watch.table = (object, noHeaders) => asTable([object], undefined, noHeaders);
      hub.serve(ops, watch, req, res);
    };

    if (r.name === undefined) {
      if (type.namespaced && r.namespace === undefined && method !== "GET") throw methodNotAllowed();
      switch (method) {
        case "GET": {
          if (isWatch) return startWatch(query.get("fieldSelector") ?? undefined);
          const list = ops.list(type, r.version, r.namespace, {
            labelSelector: query.get("labelSelector") ?? undefined,
            fieldSelector: query.get("fieldSelector") ?? undefined,
            limit: intParam(query, "limit"),
            continue: query.get("continue") ?? undefined,
          });
          if (table) {
            const items = (list.items as Obj[]).map((item) => ({
              apiVersion: list.apiVersion,
              kind: type.kind,
              ...item,
            }));
            return reply(200, asTable(items, list.metadata as object));
          }
          return reply(200, list);
        }
        case "POST": {
          const body = await objectBody(req, type);
          write.fieldValidation = fieldValidationOf(query);
          const created = ops.create(write, body);
          return reply(201, created);
        }
        case "DELETE": {
          if (!type.verbs.includes("deletecollection")) throw methodNotAllowed();
          const options = await deleteOptions(req, query);
          const list = ops.deleteCollection(write, {
            ...options,
            labelSelector: query.get("labelSelector") ?? undefined,
            fieldSelector: query.get("fieldSelector") ?? undefined,
          });
          return reply(200, list);
        }
        default:
          throw methodNotAllowed();
      }
    }

    const sub = r.subresource;
    if (sub !== undefined && sub !== "status" && !(sub === "finalize" && method === "PUT"))
      throw methodNotAllowed();
    if (method === "POST" && sub === undefined) {
      // The real server serves a create on an object's own path too; the body's name counts.
      write.fieldValidation = fieldValidationOf(query);
      return reply(201, ops.create(write, await objectBody(req, type)));
    }
    if (sub === "status") write.subresource = "status";
    switch (method) {
      case "GET": {
        if (isWatch) {
          // The deprecated single-object watch (`/watch/.../name` or `.../name?watch=true`).
          const byName = `metadata.name=${r.name}`;
          const given = query.get("fieldSelector");
          return startWatch(given ? `${given},${byName}` : byName);
        }
        const object = ops.get(type, r.version, r.namespace, r.name);
        if (table) return reply(200, asTable([object]));
        return reply(200, object);
      }
      case "PUT": {
        const body = await objectBody(req, type);
        write.fieldValidation = fieldValidationOf(query);
        if (sub === "finalize") return reply(200, finalizeNamespace(ops, write, r.name, body));
        return reply(200, ops.update(write, r.name, body));
      }
      case "PATCH": {
        const media = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
        const patchType = PATCH_CONTENT_TYPES[media];
        if (!patchType) {
          throw unsupportedMediaType(
            type.custom
              ? [
                  "application/json-patch+json",
                  "application/merge-patch+json",
                  "application/apply-patch+yaml",
                ]
              : [
                  "application/json-patch+json",
                  "application/merge-patch+json",
                  "application/strategic-merge-patch+json",
                  "application/apply-patch+yaml",
                ],
          );
        }
        if (media === "application/apply-patch+cbor")
          throw unsupportedMediaType(["application/apply-patch+yaml"]);
        write.fieldValidation = fieldValidationOf(query);
        const force = query.get("force") === "true";
        if (patchType === "apply") write.manager = query.get("fieldManager") ?? "";
        const raw = await readBody(req);
        const patched = ops.patch(write, r.name, patchType, raw, force);
        return reply(write.created ? 201 : 200, patched);
      }
      case "DELETE": {
        const options = await deleteOptions(req, query);
        const { object, deleted } = ops.delete(write, r.name, options);
        if (!deleted) return reply(200, object);
        const m = object.metadata as Obj;
        const details: Obj = { name: r.name };
        if (type.group) details.group = type.group;
        details.kind = type.resource;
        details.uid = m.uid;
        return reply(200, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details });
      }
      default:
        throw methodNotAllowed();
    }
  };

  return async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      // Anything else is a bug: the safe server logs it once and answers internalError().
      if (!isApiError(error)) throw error;
      sendError(res, error);
    }
  };
}

/** The 500 a request that failed inside the server gets, as the real server words it. */
export function internalError(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, {});
}

const PROTOBUF = "application/vnd.kubernetes.protobuf";

/** The object in a create/update body: JSON, YAML, or protobuf for the kinds kubectl's generators send so. */
async function objectBody(req: IncomingMessage, type: ResourceType): Promise<unknown> {
  const media = (req.headers["content-type"] ?? "application/json").split(";")[0]!.trim().toLowerCase();
  const accepted = ["application/json", "application/yaml"];
  const protobuf = !type.custom && PROTOBUF_KINDS.includes(type.kind) && type.group === "";
  if (media === PROTOBUF && protobuf) return decodeProtobuf(await readBodyBytes(req));
  if (media === "" || media === "*/*") return Operations.parseBody(await readBody(req), "application/json");
  if (!accepted.includes(media)) throw unsupportedMediaType([...accepted, PROTOBUF]);
  return Operations.parseBody(await readBody(req), media);
}

/** PUT /api/v1/namespaces/<name>/finalize: only spec.finalizers changes. */
function finalizeNamespace(ops: Operations, write: WriteRequest, name: string, body: unknown): Obj {
  if (!isObj(body)) throw badRequest("the request body must be a Namespace");
  const old = ops.getStored(write.type, undefined, name);
  const finalizers = isObj(body.spec) && Array.isArray(body.spec.finalizers) ? body.spec.finalizers : [];
  return ops.controllerWrite(write.type as ResourceType, old, (next) => {
    next.spec = { ...(isObj(next.spec) ? next.spec : {}), finalizers };
  });
}
