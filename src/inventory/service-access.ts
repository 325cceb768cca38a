import * as z from "zod";
import type { AuthOptions } from "../api/auth.ts";
import { endpointProblem } from "../api/endpoint.ts";
import { ApiErrorCodes, isApiError } from "../api/index.ts";
import { accountCredentials } from "../kinds/account/kind.ts";
import { type AccountSpec, accountSpecSchema } from "../kinds/account/schema.ts";
import { type FlagSpec, UsageError } from "../lib/cli/index.ts";
import type { ClusterReader } from "./cluster-reader.ts";

/**
 * Where `svc-operator export` and `plan` get an account's endpoint and credentials: an Account in
 * a cluster (and its Secret), or `--endpoint` and `--account-id` with the credentials in the
 * environment. Never from flags: flags show in `ps` and in shell histories.
 */

export const ENV = {
  refreshToken: "SVC_REFRESH_TOKEN",
  email: "SVC_EMAIL",
  password: "SVC_PASSWORD",
} as const;

export const accessFlags = {
  kubeconfig: {
    type: "string",
    description:
      "kubeconfig of the cluster holding the Account and its Secret (default: $KUBECONFIG, ~/.kube/config)",
  },
  endpoint: {
    type: "string",
    description: `service endpoint, with --account-id; credentials from ${ENV.refreshToken}, or ${ENV.email} and ${ENV.password}`,
  },
  "account-id": { type: "string", description: "numeric service account id, with --endpoint" },
} satisfies Record<string, FlagSpec>;

export const accessSchema = {
  kubeconfig: z.string().min(1, "must not be empty").optional(),
  endpoint: z
    .string()
    .refine((e) => endpointProblem(e) === undefined, { error: (i) => endpointProblem(String(i.input)) })
    .optional(),
  "account-id": z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .optional(),
};

/** The Secret an Account names, by its key names only: what an exported Account template shows. */
export interface SecretShape {
  name: string;
  keys: string[];
}

/** One account's endpoint and credentials, and how an Account names them. */
export interface AccountAccess {
  endpoint: string;
  accountId: number;
  auth: AuthOptions;
  /** The Account spec that says the same (its Secret named, never its values). */
  spec: AccountSpec;
  secret: SecretShape;
}

/** The Secret an Account spec names, with its key names. */
export function secretShape(spec: AccountSpec): SecretShape {
  if (spec.oauth)
    return { name: spec.oauth.refreshTokenSecretRef.name, keys: [spec.oauth.refreshTokenSecretRef.key] };
  const ref = spec.session!.secretRef;
  return { name: ref.name, keys: [ref.emailKey, ref.passwordKey] };
}

/** Credentials from the environment, for `--endpoint` and `--account-id`; the error names the variables. */
export function accessFromEnv(
  endpoint: string,
  accountId: number,
  env: NodeJS.ProcessEnv,
  secretName = "svc-credentials",
): AccountAccess {
  const token = env[ENV.refreshToken]?.trim();
  const email = env[ENV.email]?.trim();
  const password = env[ENV.password];
  if (token && (email || password))
    throw new UsageError(
      `set either ${ENV.refreshToken} or ${ENV.email} and ${ENV.password}, not both: which credentials to use is ambiguous`,
    );
  let spec: AccountSpec;
  let auth: AuthOptions;
  if (token) {
    auth = { type: "oauth", refreshToken: token };
    spec = {
      endpoint,
      accountId,
      oauth: { refreshTokenSecretRef: { name: secretName, key: "refreshToken" } },
    };
  } else if (email && password) {
    auth = { type: "session", email, password };
    spec = {
      endpoint,
      accountId,
      session: { secretRef: { name: secretName, emailKey: "email", passwordKey: "password" } },
    };
  } else {
    const missing = email
      ? ENV.password
      : password
        ? ENV.email
        : `${ENV.refreshToken} (or ${ENV.email} and ${ENV.password})`;
    throw new UsageError(
      `--endpoint: credentials come from the environment, never from flags: set ${missing}`,
    );
  }
  return { endpoint, accountId, auth, spec, secret: secretShape(spec) };
}

/** An Account of the cluster and its Secret; the error names the Account and what is missing. */
export async function accessFromCluster(
  reader: ClusterReader,
  namespace: string,
  name: string,
): Promise<AccountAccess> {
  const account = await reader.custom("accounts", namespace, name);
  if (!account)
    throw new AccessError(`Account ${namespace}/${name} not found in the cluster of ${reader.source}`);
  const parsed = accountSpecSchema.safeParse(account.spec);
  if (!parsed.success)
    throw new AccessError(
      `Account ${namespace}/${name} has an invalid spec: ${parsed.error.issues.map((i) => `spec.${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const spec = parsed.data;
  let auth: AuthOptions;
  try {
    auth = await accountCredentials(spec, (secret) => reader.secret(namespace, secret));
  } catch (error) {
    throw new AccessError(`Account ${namespace}/${name}: ${(error as Error).message}`);
  }
  return { endpoint: spec.endpoint, accountId: spec.accountId, auth, spec, secret: secretShape(spec) };
}

/** An account's credentials cannot be had (exit code 1: nothing wrong with the flags). */
export class AccessError extends Error {
  override name = "AccessError";
}

/** `NAMESPACE/NAME`, both DNS names. */
export const namespacedName = z
  .string()
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
    "must be NAMESPACE/NAME, e.g. team-a/default",
  )
  .transform((s) => {
    const [namespace, name] = s.split("/") as [string, string];
    return { namespace, name };
  });

/** A failure of a command that reads the service, in words naming what failed (exit code 1). */
export function describeFailure(error: unknown, endpoint: string | undefined): string {
  if (isApiError(error)) {
    const where = endpoint ? `the service at ${endpoint}` : "the service";
    if (error.kind === "unauthorized" && error.status === 401)
      return `${where} refused the credentials: ${error.message}`;
    if (error.code === ApiErrorCodes.network) return `cannot reach ${where}: ${error.message}`;
    return `${where} answered ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
