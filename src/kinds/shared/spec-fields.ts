import * as z from "zod";
import { href, ref } from "../../runtime/sdk/index.ts";

/** Spec fields several kinds share, with the same words in every CRD. */

export const cloudByName = z
  .object({
    name: z.string().min(1).max(255).describe("Exact name of the cloud, looked up through the clouds index."),
  })
  .strict()
  .describe("The cloud by name (alternative to cloudHref).");

/** `cloudHref` or `cloud: {name}`; `what` completes "Href of ...", e.g. "the cloud the network lives in". */
export const cloudChoice = (what: string) => ({
  cloudHref: href(what).optional(),
  cloud: cloudByName.optional(),
});

/** The object's name in the service, defaulting to metadata.name; `note` is added to the description. */
export const serviceName = (what: string, note?: string) =>
  z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(`Name of the ${what} in the service; defaults to metadata.name.${note ? ` ${note}` : ""}`);

/** `deploymentRef` or `deploymentHref`: the deployment `owner` belongs to (e.g. "the network"). */
export const deploymentChoice = (owner: string) => ({
  deploymentRef: ref("Deployment", `A Deployment custom resource ${owner} belongs to.`).optional(),
  deploymentHref: href(`a deployment ${owner} belongs to`).optional(),
});
