import * as z from "zod";
import { exactlyOne, href, managedSpec, ref } from "../../runtime/sdk/index.ts";

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
  [{ ...exactlyOne(["resourceGroupRef", "resourceGroupHref"], false), fieldPath: ".resourceGroupRef" }],
  "Desired state of the deployment.",
);

export type DeploymentSpec = z.output<typeof deploymentSpecSchema>;
