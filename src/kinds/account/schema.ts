import * as z from "zod";
import { ENDPOINT_CEL_RULE, ENDPOINT_RULE, endpointProblem } from "../../api/endpoint.ts";
import { commonStatusFields, exactlyOne } from "../../runtime/sdk/index.ts";

const secretName = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "must be a Secret name (DNS subdomain)")
  .max(253)
  .describe("Name of a Secret in the Account's namespace.");

export const accountSpecSchema = z
  .object({
    endpoint: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, "must be an http(s) URL such as https://us-3.example.com")
      // The credentials go there: the reconciler refuses a bad object before reading its Secret.
      .refine((endpoint) => endpointProblem(endpoint) === undefined, ENDPOINT_RULE)
      .meta({ "x-kubernetes-validations": [{ rule: ENDPOINT_CEL_RULE, message: ENDPOINT_RULE }] })
      .describe(
        "Base URL of the account's regional host, https (http only for a loopback host: 127.0.0.0/8, ::1, localhost); " +
          "a redirect to another regional host of the same registrable domain is followed and shown in status.host.",
      ),
    accountId: z.number().int().min(1).describe("Numeric id of the service account."),
    oauth: z
      .object({
        refreshTokenSecretRef: z
          .object({
            name: secretName,
            key: z.string().min(1).default("refreshToken").describe("Key holding the OAuth refresh token."),
          })
          .strict()
          .describe("Secret key holding the OAuth 2.0 refresh token."),
      })
      .strict()
      .optional()
      .describe("Authenticate with an OAuth 2.0 refresh token (preferred)."),
    session: z
      .object({
        secretRef: z
          .object({
            name: secretName,
            emailKey: z.string().min(1).default("email").describe("Key holding the login email."),
            passwordKey: z.string().min(1).default("password").describe("Key holding the password."),
          })
          .strict()
          .describe("Secret holding the login email and password."),
      })
      .strict()
      .optional()
      .describe("Authenticate with a session login (email and password)."),
    auditTrail: z
      .boolean()
      .optional()
      .describe(
        "Record every create, update, drift correction, replacement and delete the operator makes in the service's audit entries, one entry per service object (default true; false: no audit calls).",
      ),
  })
  .strict()
  .meta({ "x-kubernetes-validations": [exactlyOne(["oauth", "session"])] })
  .describe(
    "Endpoint and credentials of one service account. Managed resources in the namespace name it in spec.accountRef.",
  );

export type AccountSpec = z.output<typeof accountSpecSchema>;

export const accountStatusSchema = z
  .object({
    host: z.string().optional().describe("The regional host the service answered from, after redirects."),
    ...commonStatusFields,
  })
  .describe("Observed state of the Account.");

export const accountDefinition = {
  kind: "Account",
  plural: "accounts",
  singular: "account",
  shortNames: ["svcacct"],
  description:
    "Credentials and endpoint of a service account. Ready when a cheap authenticated call succeeds; managed resources in the same namespace wait with DependencyNotReady until then.",
  spec: accountSpecSchema,
  status: accountStatusSchema,
  printerColumns: [
    {
      name: "Endpoint",
      type: "string" as const,
      jsonPath: ".spec.endpoint",
      description: "Configured endpoint",
    },
    { name: "Host", type: "string" as const, jsonPath: ".status.host", description: "Regional host in use" },
  ],
};
