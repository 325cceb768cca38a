import type { AuthOptions } from "../../api/auth.ts";
import {
  type ApiClientOptions,
  ApiErrorCodes,
  type CallEvent,
  createServiceApi,
  type EndpointAllowlist,
  isApiError,
  type ServiceApi,
} from "../../api/index.ts";
import type { TokenBucket } from "../../api/rate-limiter.ts";
import type { Footprint } from "../../lib/index.ts";
import type { AccountKind } from "../../runtime/sdk/index.ts";
import { credentialsRefused, endpointNotAllowed, Reason, secretProblem } from "../../runtime/sdk/index.ts";
import { type AccountSpec, accountSpecSchema } from "./schema.ts";

type ReadSecret = (name: string) => Promise<Record<string, string> | undefined>;

/** Reads the Secret keys the spec names; a missing Secret or key is reported by name, never its value. */
export async function accountCredentials(spec: AccountSpec, readSecret: ReadSecret): Promise<AuthOptions> {
  if (spec.oauth) {
    const { name, key } = spec.oauth.refreshTokenSecretRef;
    const data = await readSecret(name);
    if (!data)
      throw secretProblem(
        Reason.SecretNotFound,
        `Secret ${name} (spec.oauth.refreshTokenSecretRef) not found`,
      );
    const token = data[key];
    if (!token)
      throw secretProblem(
        Reason.SecretKeyMissing,
        `Secret ${name} has no key ${key} (spec.oauth.refreshTokenSecretRef.key)`,
      );
    return { type: "oauth", refreshToken: token.trim() };
  }
  if (spec.session) {
    const { name, emailKey, passwordKey } = spec.session.secretRef;
    const data = await readSecret(name);
    if (!data)
      throw secretProblem(Reason.SecretNotFound, `Secret ${name} (spec.session.secretRef) not found`);
    const missing = [emailKey, passwordKey].filter((k) => !data[k]);
    if (missing.length > 0) {
      throw secretProblem(
        Reason.SecretKeyMissing,
        `Secret ${name} has no key ${missing.join(" or ")} (spec.session.secretRef)`,
      );
    }
    return { type: "session", email: data[emailKey]!.trim(), password: data[passwordKey]! };
  }
  throw secretProblem(Reason.SecretNotFound, "exactly one of spec.oauth and spec.session must be set");
}

export interface AccountConnectOptions {
  /** Per-account token bucket (shared by every reconciler of that account). */
  rateLimit: (account: { namespace: string; name: string }) => TokenBucket | false;
  onCall?: (event: CallEvent) => void;
  logger?: ApiClientOptions["logger"];
  dispatcher?: ApiClientOptions["dispatcher"];
  transport?: ApiClientOptions["transport"];
  retry?: ApiClientOptions["retry"];
  /** `--allowed-endpoints`: Accounts whose endpoint is outside it are refused before their Secret is read. */
  allowedEndpoints?: EndpointAllowlist;
  /** Called when an Account is gone: drop its token bucket. */
  forget?: (account: { namespace: string; name: string }) => void;
  /** What is kept per Account beside the clients (the token buckets). */
  footprint?: () => Footprint;
}

export function accountKind(
  options: AccountConnectOptions,
): AccountKind<AccountSpec, AuthOptions, ServiceApi> {
  return {
    schema: accountSpecSchema,
    credentials: accountCredentials,
    connect: (spec, auth, account) =>
      createServiceApi({
        endpoint: spec.endpoint,
        accountId: spec.accountId,
        auth,
        rateLimit: options.rateLimit(account),
        onCall: options.onCall,
        logger: options.logger,
        dispatcher: options.dispatcher,
        transport: options.transport,
        retry: options.retry,
        allowedEndpoints: options.allowedEndpoints,
      }),
    admit(spec) {
      const outside = options.allowedEndpoints?.problem(new URL(spec.endpoint));
      if (outside !== undefined) {
        throw endpointNotAllowed(
          `spec.endpoint: ${outside}; nothing is sent there and the Secret is not read. ` +
            "Point spec.endpoint at an allowed host, or ask the operator's administrator to allow it",
        );
      }
    },
    async verify(api) {
      try {
        // Cheap and readable with the observer role: one filtered index, answered at once by a
        // service that is there (quick: a short wait for the first byte, --api-first-byte-timeout).
        await api.deployments.index({ filter: { name: "svc-operator-credentials-check" }, quick: true });
      } catch (error) {
        if (isApiError(error) && error.kind === "unauthorized") {
          throw credentialsRefused(`the service refused the credentials: ${error.message}`);
        }
        if (isApiError(error) && error.code === ApiErrorCodes.endpointNotAllowed) {
          throw endpointNotAllowed(
            `spec.endpoint ${api.client.currentOrigin} redirects outside the allowed endpoints: ${error.message}; ` +
              "nothing was sent there. Point spec.endpoint at the account's regional host, or ask the operator's administrator to allow it",
          );
        }
        throw error;
      }
      return { host: api.client.currentOrigin };
    },
    close: (api) => api.close(),
    forget: options.forget,
    footprint: options.footprint,
  };
}
