import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRules } from "../shared/table-kind.ts";
import { changedInputs, inputsOf } from "./inputs.ts";

export type DeploymentClient = Pick<ServiceApi, "deployments" | "inputs">;

/**
 * Spec field, API parameter (spec 4.13) and member of the real deployment media type (view
 * inputs_2_0, which shows the inputs). The resource group is the `resource_group` link; create
 * and update take `resource_group_href`. The lock and the inputs are compared here and set by
 * the kind's own calls (lock and unlock, multi_update).
 */
export const deploymentRows: TableRow<DeploymentClient>[] = [
  { ...rows.name(), defaultName: true },
  rows.description(),
  {
    spec: "serverTagScope",
    param: "server_tag_scope",
    attribute: "server_tag_scope",
    observed: "server_tag_scope",
    at: "serverTagScope",
    write: "update",
  },
  {
    spec: "resourceGroupHref",
    ref: { field: "resourceGroupRef", kind: "ResourceGroup" },
    param: "resource_group_href",
    link: "resource_group",
    write: "update",
  },
  { spec: "locked", attribute: "locked", write: "kind" },
  { spec: "inputs", attribute: "inputs", fromApi: inputsOf, diff: changedInputs, write: "kind" },
];

// 2.0 notation (spec 4.13), as far as a RE2 pattern can tell; the reconciler parses each value fully.
const INPUT_VALUE =
  /^(text:[\s\S]*|blank|ignore|\$ignore|ignore:\$ignore|inherit|env:\S[\s\S]*|cred:\S+|key:\S+|array:\[[\s\S]*\])$/;

export const deploymentSpecSchema = managedSpec(
  {
    name: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Name of the deployment in the service (unique in the account); defaults to metadata.name."),
    description: z.string().max(4096).optional().describe("Description of the deployment; empty clears it."),
    serverTagScope: z
      .enum(["deployment", "account"])
      .optional()
      .describe("Scope of server tags: deployment or account."),
    resourceGroupHref: href("a cloud-provider resource group").optional(),
    resourceGroupRef: ref(
      "ResourceGroup",
      "A ResourceGroup custom resource the deployment belongs to; waits until it is Ready.",
    ).optional(),
    locked: z
      .boolean()
      .default(false)
      .describe(
        "Desired lock state: true locks the deployment (servers cannot be deleted or moved out), false unlocks it.",
      ),
    inputs: z
      .record(
        z.string().min(1).describe("Input name."),
        z
          .string()
          .regex(
            INPUT_VALUE,
            "must be an input value in 2.0 notation such as text:value, cred:NAME, env:VAR, blank, ignore or inherit",
          )
          .describe("Input value in 2.0 notation."),
      )
      .optional()
      .describe(
        "Input values in 2.0 notation (text:..., cred:..., env:..., key:..., array:[...], blank, ignore, inherit), " +
          "applied with multi_update. Only inputs the deployment already has are applied; the service ignores other names.",
      ),
  },
  tableRules(deploymentRows),
  "Desired state of the deployment.",
);

export type DeploymentSpec = z.output<typeof deploymentSpecSchema>;
