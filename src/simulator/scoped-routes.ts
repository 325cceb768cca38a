import type { RequestContext } from "./context.ts";
import { resourceNotFound } from "./errors.ts";
import type { FilterSpec } from "./filters.ts";
import type { Representation } from "./representation.ts";
import type { RouteDef, SimulatorApi } from "./resource.ts";
import type { Access } from "./roles.ts";
import type { Collection, Store, StoredObject } from "./store.ts";

/**
 * A collection reached under a path scope (a cloud, a parent object): what its index, show
 * and destroy need. Create and update stay in the resource module: their rules differ.
 */
export interface ScopedCollection<T extends StoredObject, S> {
  collection(store: Store): Collection<T>;
  /** The ResourceNotFound label (`Subnet`). */
  label: string;
  /** Media type name (`subnet`) and XML root of the index (`subnets`). */
  type: string;
  plural: string;
  filters: FilterSpec<T>;
  /** The views index and show accept (default: `default` only); `render` reads `ctx.view`. */
  views?: readonly string[];
  /** Checks the path's parents (404/422) before `view` is read, as the real service does. */
  scope(ctx: RequestContext): S;
  /** An object outside the path's scope answers ResourceNotFound, as an unknown id does. */
  inScope(object: T, scope: S): boolean;
  render(ctx: RequestContext, object: T): Representation;
}

/** The scope of a collection with no path parents (`/api/networks`): the whole account. */
export const ACCOUNT_WIDE = { scope: (): null => null, inScope: (): boolean => true };

/** The object `:id` names, when it lies in `scope` (422 ResourceNotFound otherwise). */
export function findInScope<T extends StoredObject, S>(
  ctx: RequestContext,
  def: ScopedCollection<T, S>,
  scope: S,
): T {
  const id = ctx.param("id");
  const found = def.collection(ctx.store).get(id);
  if (!found || !def.inScope(found, scope)) throw resourceNotFound(def.label, id);
  return found;
}

type Handler = RouteDef["handler"];

/**
 * Registers the routes of `def` at `base` and `${base}/:id`: index and show (the views of
 * `def.views`, else `default` only), the module's own `create` and `update` when given, and its own `destroy` or else
 * one that deletes the object and nothing else. Registered in that order, which is the order
 * `Allow` lists them.
 */
export function scopedRoutes<T extends StoredObject, S>(
  sim: SimulatorApi,
  base: string,
  def: ScopedCollection<T, S>,
  routes: { read: Access; write: Access; create?: Handler; update?: Handler; destroy?: Handler },
): void {
  sim.route({
    method: "GET",
    path: base,
    access: routes.read,
    handler(ctx) {
      const scope = def.scope(ctx);
      ctx.view(def.views ?? ["default"]);
      const list = ctx.filter(
        def.collection(ctx.store).filter((o) => def.inScope(o, scope)),
        def.filters,
      );
      return ctx.many(
        def.type,
        def.plural,
        list.map((o) => def.render(ctx, o)),
      );
    },
  });
  sim.route({
    method: "GET",
    path: `${base}/:id`,
    access: routes.read,
    handler(ctx) {
      const scope = def.scope(ctx);
      ctx.view(def.views ?? ["default"]);
      return ctx.one(def.type, def.render(ctx, findInScope(ctx, def, scope)));
    },
  });
  if (routes.create) sim.route({ method: "POST", path: base, access: routes.write, handler: routes.create });
  if (routes.update) {
    sim.route({ method: "PUT", path: `${base}/:id`, access: routes.write, handler: routes.update });
  }
  sim.route({
    method: "DELETE",
    path: `${base}/:id`,
    access: routes.write,
    handler:
      routes.destroy ??
      ((ctx) => {
        const found = findInScope(ctx, def, def.scope(ctx));
        def.collection(ctx.store).delete(found.id);
        return ctx.noContent();
      }),
  });
}
