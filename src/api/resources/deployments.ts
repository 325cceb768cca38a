import * as z from "zod";
import type { ApiClient } from "../client.ts";
import { hrefOfCreated, type IndexOptions, postAction } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
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
  const ops = resourceOps(client, "deployment", deploymentSchema);
  return {
    index: (options?: IndexOptions) => ops.index(DEPLOYMENTS, options),
    show: ops.show,
    /** Deployment names are unique per account, which makes the lookup exact. */
    create: (params: DeploymentParams & { name: string }) =>
      ops.create(DEPLOYMENTS, params, {
        filter: { name: params.name },
        match: (d) => d.name === params.name,
      }),
    update: (href: string, params: DeploymentParams) => ops.update(href, params),
    destroy: ops.destroy,
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
