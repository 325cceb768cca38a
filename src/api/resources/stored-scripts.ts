import * as z from "zod";
import type { ApiClient } from "../client.ts";
import { type IndexOptions, listAll } from "../resource.ts";
import { linksSchema } from "../schemas.ts";

/** A stored script as its index shows it (the default view): the operator only reads them. */
export const storedScriptSchema = z.looseObject({
  name: z.string().nullish(),
  links: linksSchema,
});
export type StoredScript = z.output<typeof storedScriptSchema>;

/** Stored scripts (`/api/stored_scripts`): read-only here, the collections their attachments live in. */
export function storedScriptsApi(client: ApiClient) {
  return {
    index: (options?: IndexOptions) => listAll(client, "/api/stored_scripts", storedScriptSchema, options),
  };
}
