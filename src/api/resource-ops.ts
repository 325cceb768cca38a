import type * as z from "zod";
import type { ApiClient } from "./client.ts";
import type { Filters } from "./encoding.ts";
import {
  createIn,
  destroyAt,
  findHrefs,
  type IndexOptions,
  listAll,
  type ShowOptions,
  showOne,
  updateAt,
} from "./resource.ts";

/**
 * How a create finds its object when the 201 has no `Location`: a filtered index (of `path`,
 * else the collection posted to) and the test an item must pass to be the one created.
 */
export interface CreateLookup<T> {
  path?: string;
  filter: Filters;
  match: (item: T) => boolean;
}

/**
 * The index, show, create, update and destroy of a resource whose writable members travel
 * in one wrapper hash (`network[name]=...`), typed by its representation schema. A resource
 * module keeps its own typed signatures and says only where its collections are and how a
 * lost create is found again.
 */
export function resourceOps<S extends z.ZodType>(client: ApiClient, wrapper: string, schema: S) {
  return {
    index: (path: string, options?: IndexOptions) => listAll(client, path, schema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, schema, options),
    /** Without `lookup`, a 201 without `Location` is a bad response. */
    create: (path: string, params: object, lookup?: CreateLookup<z.output<S>>) =>
      createIn(
        client,
        path,
        { [wrapper]: params },
        {
          find: lookup && (() => findHrefs(client, lookup.path ?? path, schema, lookup.filter, lookup.match)),
        },
      ),
    update: (href: string, params: object) => updateAt(client, href, { [wrapper]: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
