import { z } from "zod";
import type { ApiClient } from "../client.ts";
import {
  createIn,
  destroyAt,
  findHrefs,
  hrefOfCreated,
  type IndexOptions,
  listAll,
  postAction,
  type ShowOptions,
  showOne,
  updateAt,
} from "../resource.ts";
import { actionsSchema, linksSchema } from "../schemas.ts";

export const DEPLOYMENTS = "/api/deployments";

export const deploymentSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullable(),
  locked: z.boolean(),
  server_tag_scope: z.string(),
  links: linksSchema,
  actions: actionsSchema,
  /** Only with the views `inputs` and `inputs_2_0`. */
  inputs: z.array(z.looseObject({ name: z.string(), value: z.string() })).optional(),
});
export type Deployment = z.output<typeof deploymentSchema>;

export interface DeploymentParams {
  name?: string;
  description?: string;
  resource_group_href?: string;
  server_tag_scope?: "deployment" | "account";
}

export function deploymentsApi(client: ApiClient) {
  return {
    index: (options?: IndexOptions) => listAll(client, DEPLOYMENTS, deploymentSchema, options),
    show: (href: string, options?: ShowOptions) => showOne(client, href, deploymentSchema, options),
    /** Deployment names are unique per account, which makes the lookup exact. */
    create: (params: DeploymentParams & { name: string }) =>
      createIn(
        client,
        DEPLOYMENTS,
        { deployment: params },
        {
          find: () =>
            findHrefs(
              client,
              DEPLOYMENTS,
              deploymentSchema,
              { name: params.name },
              (d) => d.name === params.name,
            ),
        },
      ),
    update: (href: string, params: DeploymentParams) => updateAt(client, href, { deployment: params }),
    destroy: (href: string) => destroyAt(client, href),
    /** Creates a copy; resolves with the clone's href. Not retried (it creates). */
    clone: async (href: string, params?: Omit<DeploymentParams, "resource_group_href">) => {
      const result = await client.call({
        method: "POST",
        path: `${href}/clone`,
        form: params ? { deployment: params } : undefined,
        create: true,
      });
      return hrefOfCreated(client, "POST", `${href}/clone`, result, undefined);
    },
    /** Idempotent (spec 3): safe to retry. */
    lock: (href: string) => postAction(client, href, "lock", undefined, true).then(() => undefined),
    unlock: (href: string) => postAction(client, href, "unlock", undefined, true).then(() => undefined),
  };
}
