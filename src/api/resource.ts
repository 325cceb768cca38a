import type * as z from "zod";
import type { ApiClient, CallResult } from "./client.ts";
import { encodeMultipart, type FilePart, type Filters, filterParams, type Params } from "./encoding.ts";
import { ApiError, ApiErrorCodes } from "./errors.ts";
import { headerValue } from "./transport.ts";

/**
 * The operations every resource module is made of. A resource module only names its
 * paths, wrapper and schemas; transport, auth, retries and errors live in the client.
 */

export interface IndexOptions {
  filter?: Filters;
  view?: string;
  /** Other index parameters (`with_deleted`, `start_date`, ...). */
  params?: Params;
  signal?: AbortSignal;
  /** A call the service answers at once (CallOptions.quick): a filtered index that finds little. */
  quick?: boolean;
  /**
   * Only the items whose self link is one of these hrefs are validated and returned; the others
   * are dropped before validation, so that a read wanting a few objects of a long collection
   * does not copy (and check) every one of them. Absent: every item.
   */
  wanted?: ReadonlySet<string>;
}

export interface ShowOptions {
  view?: string;
  params?: Params;
  signal?: AbortSignal;
}

export async function listAll<S extends z.ZodType>(
  client: ApiClient,
  path: string,
  schema: S,
  options: IndexOptions = {},
): Promise<Array<z.output<S>>> {
  const query = { ...options.params, view: options.view, filter: filterParams(options.filter) };
  const result = await client.call({
    method: "GET",
    path,
    query,
    signal: options.signal,
    quick: options.quick,
  });
  const items = parseJson(client, result, "GET", path);
  if (!Array.isArray(items)) throw badResponse("GET", path, "a collection must be a JSON array");
  const wanted = options.wanted;
  if (!wanted) return items.map((item, i) => validate(schema, item, "GET", path, `[${i}]`));
  const out: Array<z.output<S>> = [];
  for (let i = 0; i < items.length; i++) {
    const href = rawSelfHref(items[i]);
    if (href !== undefined && wanted.has(href)) out.push(validate(schema, items[i], "GET", path, `[${i}]`));
  }
  return out;
}

/** The self link of an item not validated yet, or undefined when it has none a schema would accept. */
function rawSelfHref(item: unknown): string | undefined {
  const links = (item as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return undefined;
  for (const link of links as Array<{ rel?: unknown; href?: unknown } | null>)
    if (link?.rel === "self") return typeof link.href === "string" ? link.href : undefined;
  return undefined;
}

export async function showOne<S extends z.ZodType>(
  client: ApiClient,
  href: string,
  schema: S,
  options: ShowOptions = {},
): Promise<z.output<S>> {
  const query = { ...options.params, view: options.view };
  const result = await client.call({ method: "GET", path: href, query, signal: options.signal });
  return validate(schema, parseJson(client, result, "GET", href), "GET", href, "");
}

/**
 * Whether the object an href names exists: a GET of the href, true on 2xx, false when the service
 * answers that it does not (404, or 422 ResourceNotFound); any other failure is thrown as usual.
 * The representation is not parsed: any linked type (a server, a user, a datacenter) can be asked.
 */
export async function objectExists(client: ApiClient, href: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.call({ method: "GET", path: href, signal });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.kind === "notFound") return false;
    throw error;
  }
}

export interface CreateOptions {
  /**
   * Finds the created object when the 201 has no `Location` (the spec does not promise
   * it for every create): a filtered index returning the matching hrefs.
   */
  find?: () => Promise<string[]>;
  multipart?: boolean;
  signal?: AbortSignal;
}

/** POST to a collection; resolves with the new object's href. Never retried (see ApiClient). */
export async function createIn(
  client: ApiClient,
  path: string,
  params: Params,
  options: CreateOptions = {},
): Promise<string> {
  const result = await client.call({
    method: "POST",
    path,
    form: params,
    create: true,
    signal: options.signal,
  });
  return hrefOfCreated(client, "POST", path, result, options.find);
}

export async function createMultipart(
  client: ApiClient,
  path: string,
  wrapper: string,
  fields: Record<string, string | FilePart | undefined>,
  options: CreateOptions = {},
): Promise<string> {
  const result = await client.call({
    method: "POST",
    path,
    multipart: encodeMultipart(wrapper, fields),
    create: true,
    signal: options.signal,
  });
  return hrefOfCreated(client, "POST", path, result, options.find);
}

export async function hrefOfCreated(
  client: ApiClient,
  method: string,
  path: string,
  result: CallResult,
  find: (() => Promise<string[]>) | undefined,
): Promise<string> {
  const location = headerValue(result.headers, "location");
  if (location) return relativeHref(location);
  if (!find) throw badResponse(method, path, "the create answered without a Location header");
  const found = await find();
  client.logger.debug(
    { method, path, found: found.length },
    "create answered without Location: looked it up",
  );
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw badResponse(method, path, "created, but no object matches the lookup");
  throw new ApiError({
    kind: "conflict",
    code: ApiErrorCodes.conflict,
    method,
    href: path,
    message: `${method} ${path}: created, but the lookup matches several objects: ${found.join(", ")}`,
  });
}

/** `Location` may be absolute; an href is the path (and query) on the account's host. */
export function relativeHref(location: string): string {
  if (location.startsWith("/")) return location;
  const url = new URL(location);
  return url.pathname + url.search;
}

export async function updateAt(
  client: ApiClient,
  href: string,
  params: Params,
  signal?: AbortSignal,
): Promise<void> {
  await client.call({ method: "PUT", path: href, form: params, signal });
}

export async function destroyAt(client: ApiClient, href: string, signal?: AbortSignal): Promise<void> {
  await client.call({ method: "DELETE", path: href, signal });
}

/** A POST action on an object (`lock`, `append`, ...): retried only when `idempotent`. */
export async function postAction(
  client: ApiClient,
  href: string,
  action: string,
  params: Params | undefined,
  idempotent: boolean,
  signal?: AbortSignal,
): Promise<CallResult> {
  return client.call({ method: "POST", path: `${href}/${action}`, form: params, idempotent, signal });
}

/** The hrefs of the objects of an index that satisfy `match` (used to find a create without Location). */
export async function findHrefs<S extends z.ZodType>(
  client: ApiClient,
  path: string,
  schema: S,
  filter: Filters,
  match: (item: z.output<S>) => boolean,
): Promise<string[]> {
  const items = await listAll(client, path, schema, { filter });
  return items
    .filter(match)
    .map((item) => selfOf(item as { links?: Array<{ rel: string; href?: string | null }> }));
}

function selfOf(item: { links?: Array<{ rel: string; href?: string | null }> }): string {
  const href = item.links?.find((l) => l.rel === "self")?.href;
  if (!href) throw new TypeError("representation has no self link");
  return href;
}

/** What a non-JSON answer was (a proxy's or captive portal's page, an echo), shown scrubbed and short. */
function parseJson(client: ApiClient, result: CallResult, method: string, href: string): unknown {
  try {
    return JSON.parse(result.body);
  } catch {
    const type = headerValue(result.headers, "content-type") ?? "no content-type";
    const start = client.scrub(result.body.slice(0, 4096)).replace(/\s+/g, " ").trim().slice(0, 120);
    throw badResponse(
      method,
      href,
      `the body is not JSON (${type}, ${result.body.length} characters): ${JSON.stringify(start)}`,
    );
  }
}

function validate<S extends z.ZodType>(schema: S, value: unknown, method: string, href: string, at: string) {
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.output<S>;
  const issue = result.error.issues[0]!;
  const field = `${at}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`;
  throw badResponse(method, href, `unexpected representation at ${field || "(root)"}: ${issue.message}`);
}

export function badResponse(method: string, href: string, what: string): ApiError {
  return new ApiError({
    kind: "invalid",
    code: ApiErrorCodes.badResponse,
    method,
    href,
    message: `${method} ${href}: ${what}`,
  });
}
