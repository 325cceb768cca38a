import type * as z from "zod";
import type { Authenticator } from "./auth.ts";
import type { Clock } from "./clock.ts";
import type { RequestContext, SimResponse } from "./context.ts";
import type { Access } from "./roles.ts";
import type { Method } from "./router.ts";
import type { Store, StoredObject } from "./store.ts";

/** One route of a resource. */
export interface RouteDef {
  method: Method;
  /** Path template, `:name` for parameters: `/api/clouds/:cloud_id/volumes/:id`. No suffix. */
  path: string;
  /** Roles/settings the caller needs (spec 5.3), or `public` (no login). */
  access: Access;
  /** The version header is mandatory (session, oauth2); elsewhere it is optional. */
  versionRequired?: boolean;
  /** Serves its own bytes and content type (downloads, images): `Accept` is not negotiated. */
  raw?: boolean;
  handler(ctx: RequestContext): SimResponse | Promise<SimResponse>;
}

/** What a resource module gets to register its routes. */
export interface SimulatorApi {
  store: Store;
  clock: Clock;
  auth: Authenticator;
  /** Secret key of this simulator instance (HMAC of signed URLs). */
  secret: Buffer;
  /** Base URLs once listening (`http://127.0.0.1:9292`); empty strings before. */
  urls: { primary: string; region: string };
  route(def: RouteDef): void;
}

/** Seed records per collection name: what `--seed FILE` and the default seed hold. */
export type SeedData = Record<string, StoredObject[]>;

/**
 * A resource module: one file under src/simulator/resources/, listed in resources/index.ts.
 * See the comment at the top of resources/index.ts for how to write one.
 */
export interface ResourceModule {
  name: string;
  /**
   * zod schemas of the records of the collections this module owns, keyed by collection
   * name. Seed files are validated with them (defaults fill omitted fields); a collection
   * no module declares is refused in a seed file.
   */
  collections: Record<string, z.ZodType<StoredObject, unknown>>;
  /** Records this module adds to the default seed (not used when `--seed FILE` is given). */
  defaultSeed?: () => SeedData;
  register(sim: SimulatorApi): void;
}

export function defineResource(module: ResourceModule): ResourceModule {
  return module;
}
