import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { parseInputValue } from "../../service-model/index.ts";
import { tableKind } from "../shared/table-kind.ts";
import { deploymentWarnings } from "./inputs.ts";
import { type DeploymentClient, deploymentRows, deploymentSpecSchema } from "./schema.ts";

/** The view that shows a deployment's inputs. */
const VIEW = "inputs_2_0";

/**
 * A deployment (spec 4.13): a table kind, listed account-wide, whose lock and inputs are set by
 * calls of their own after the update of its fields (the update after the first observation
 * applies them to a new deployment); a locked deployment is unlocked before its deletion.
 */
export const deploymentKind = tableKind({
  kind: "Deployment",
  plural: "deployments",
  singular: "deployment",
  shortNames: ["svcdep"],
  description:
    "A deployment of the cloud-management service: a logical grouping of servers and server arrays, with its lock state and inputs.",
  schema: deploymentSpecSchema,
  printerColumns: [
    {
      name: "Locked",
      type: "boolean",
      jsonPath: ".status.atProvider.locked",
      description: "Lock state the service reports",
    },
  ],
  rows: deploymentRows,
  resource: (client: DeploymentClient) => ({
    show: (href) => client.deployments.show(href, { view: VIEW }),
    index: (_scope, options) => client.deployments.index({ ...options, view: VIEW }),
    create: (_scope, params) => client.deployments.create(params as never),
    update: (href, params) => client.deployments.update(href, params),
    destroy: (href) => client.deployments.destroy(href),
  }),
  // The name filter is a substring match; the service keeps names unique per account.
  lookupBy: ["name"],
  deleteRefused: "stall",
  validate(spec) {
    for (const [name, value] of Object.entries(spec.inputs ?? {})) {
      const parsed = parseInputValue(name, value, "2.0");
      if (!parsed.ok) throw new InvalidSpecError(`inputs.${name}`, parsed.error.message);
    }
  },
  warnings: deploymentWarnings,
  overrides: {
    async update(base, client, href, desired, observed, diff) {
      await base.update(client, href, desired, observed, diff);
      const inputs = diff.find((d) => d.field === "inputs");
      if (inputs) await client.inputs.multiUpdate(href, inputs.desired as Record<string, string>);
      if (diff.some((d) => d.field === "locked")) {
        if (desired.locked) await client.deployments.lock(href);
        else await client.deployments.unlock(href);
      }
    },
    async delete(base, client, href, observed) {
      // A locked deployment cannot be destroyed (422 ActionNotAllowed).
      if (observed.locked) await client.deployments.unlock(href);
      await base.delete(client, href, observed);
    },
  },
});
